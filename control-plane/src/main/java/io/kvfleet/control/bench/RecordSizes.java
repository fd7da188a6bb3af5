package io.kvfleet.control.bench;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.EventCodec;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The encoded sizes of our records on the wire, which the raw round trip pads its records to.
 *
 * @param key the record key (the source node)
 * @param request a {@code TransferRequested} envelope
 * @param dispatched a {@code TransferDispatched} envelope with its order, as the coordinator wrote
 *     one in this run (0 until one was read)
 * @param terminal a {@code TransferCompleted} envelope
 */
public record RecordSizes(int key, int request, int dispatched, int terminal) {
  /** These sizes with the dispatch's as read from the log. */
  RecordSizes withDispatched(int bytes) {
    return new RecordSizes(key, request, bytes, terminal);
  }

  /** Measures the sizes of {@code request} and {@code terminal} as the codec writes them. */
  static RecordSizes of(FleetEvent request, String requestProducer, FleetEvent terminal, String terminalProducer) {
    var codec = new EventCodec();
    return new RecordSizes(Topics.keyOf(request).getBytes(StandardCharsets.UTF_8).length,
        encoded(codec, requestProducer, request), 0, encoded(codec, terminalProducer, terminal));
  }

  private static int encoded(EventCodec codec, String producer, FleetEvent event) {
    // A 13-digit epoch and a 6-digit sequence, as a bench run's producers write them.
    var envelope = Envelope.of(producer, 1_760_000_000_000L, 100_000, Instant.now(), event.subject(), event);
    return codec.encode(envelope).length;
  }
}
