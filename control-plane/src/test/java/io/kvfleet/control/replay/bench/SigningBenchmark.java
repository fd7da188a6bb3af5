package io.kvfleet.control.replay.bench;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EventCodec;
import io.kvfleet.events.trust.FleetKey;
import io.kvfleet.events.trust.KeyBinding;
import io.kvfleet.events.trust.Role;
import io.kvfleet.events.trust.SignedDocument;
import io.kvfleet.events.trust.TrustFile;
import io.kvfleet.events.trust.Verdict;
import io.kvfleet.events.trust.Verifier;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What signing adds per event: encoding alone beside encoding and signing (a producer), decoding alone beside
 * decoding and verifying (a reader with a trust file), one event per operation, cycling over the synthetic fleet's
 * events. Every key is one trust-file entry allowed to say everything of its role.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class SigningBenchmark {
  private static final int EVENTS = 10_000;
  private final EventCodec codec = new EventCodec();
  private final FleetKey key = FleetKey.generate("bench");
  private Verifier verifier;
  private List<Envelope> envelopes;
  private byte[][] unsigned;
  private byte[][] signed;
  private int next;

  @Setup(Level.Trial)
  public void generate() {
    envelopes = SyntheticFleet.generate(EVENTS, Instant.parse("2026-06-01T12:00:00Z")).subList(0, EVENTS);
    unsigned = envelopes.stream().map(codec::encode).toArray(byte[][]::new);
    signed = envelopes.stream().map(e -> SignedDocument.sign(codec.encode(e), key)).toArray(byte[][]::new);
    var everyone = envelopes.stream().map(Envelope::producer).collect(java.util.stream.Collectors.toSet());
    var nodes = envelopes.stream().map(e -> e.data().nodeId()).collect(java.util.stream.Collectors.toSet());
    // One binding per role would refuse the others' types: the cost measured is the check, not its verdict.
    verifier = Verifier.against(TrustFile.of(new KeyBinding("bench", key.publicKey(), Role.NODE, everyone, nodes)));
  }

  private int next() {
    next = (next + 1) % EVENTS;
    return next;
  }

  /** Encoding one event, unsigned. */
  @Benchmark
  public byte[] encode() {
    return codec.encode(envelopes.get(next()));
  }

  /** Encoding one event and signing it, as a signing producer's serializer does. */
  @Benchmark
  public byte[] encodeAndSign() {
    return SignedDocument.sign(codec.encode(envelopes.get(next())), key);
  }

  /** Decoding one unsigned record. */
  @Benchmark
  public Decoded decode() {
    return codec.decode(unsigned[next()]);
  }

  /** Decoding one signed record and verifying it, as a verifying coordinator or replay does. */
  @Benchmark
  public Verdict decodeAndVerify() {
    var e = (Decoded.Event) codec.decode(signed[next()]);
    return verifier.check(e.raw(), e.envelope(), id -> Optional.empty());
  }
}
