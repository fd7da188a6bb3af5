package io.kvfleet.control.replay.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonToken;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EventCodec;
import java.io.IOException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Decoding stored records on one thread: {@link EventCodec#decode} beside Jackson's tokenizer alone
 * over the same bytes (no strings, no records, no checks: the floor under any Jackson decoder).
 */
@State(Scope.Thread)
public class DecodeBenchmark extends MicroBenchmark {
  private final EventCodec codec = new EventCodec();
  private final JsonFactory json = new JsonFactory();

  /** Events per second through {@code EventCodec.decode}. */
  @Benchmark
  public long eventCodecDecode(MicroLog log) {
    long events = 0;
    for (byte[] record : log.records) {
      events += codec.decode(record) instanceof Decoded.Event ? 1 : 0;
    }
    return events;
  }

  /** Records per second that Jackson only tokenizes. */
  @Benchmark
  public void jacksonTokensOnly(MicroLog log, Blackhole sink) throws IOException {
    for (byte[] record : log.records) {
      try (var parser = json.createParser(record)) {
        for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
          sink.consume(token);
        }
      }
    }
  }
}
