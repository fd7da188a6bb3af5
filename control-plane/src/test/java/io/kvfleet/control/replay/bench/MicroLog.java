package io.kvfleet.control.replay.bench;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EventCodec;
import io.kvfleet.events.replay.LogPosition;
import io.kvfleet.events.replay.LogRecord;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The log the micro-benchmarks read: {@link #EVENTS} events of the same synthetic fleet as {@code
 * kvfleet bench replay}, as envelopes, as decoded Kafka records (one partition per topic) and as
 * the CloudEvents JSON values Kafka would hold.
 */
@State(Scope.Benchmark)
public class MicroLog {
  /** Events per benchmark operation batch; every figure is per event. */
  public static final int EVENTS = 100_000;

  List<Envelope> envelopes;
  List<LogRecord> decoded;
  byte[][] records;

  @Setup(Level.Trial)
  public void generate() {
    envelopes = SyntheticFleet.generate(EVENTS, Instant.parse("2026-06-01T12:00:00Z")).subList(0, EVENTS);
    var codec = new EventCodec();
    records = envelopes.stream().map(codec::encode).toArray(byte[][]::new);
    Map<String, Long> offsets = new HashMap<>();
    decoded = envelopes.stream().map(e -> {
      String topic = Topics.topicOf(e);
      long offset = offsets.merge(topic, 1L, Long::sum) - 1;
      return new LogRecord(new LogPosition(topic, 0, offset), e.time(), Topics.keyOf(e), new Decoded.Event(e));
    }).toList();
  }
}
