package io.kvfleet.control.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EventCodec;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The agent's order reader decodes the dispatches of its partition and skips the other records undecoded. */
class OrderLogTest {
  private final EventCodec codec = new EventCodec();
  private final OrderLog.DispatchesOnly reader = new OrderLog.DispatchesOnly();

  @Test
  void decodesADispatch() {
    var dispatch = new TransferDispatched("t-1", "prefill-0", "coordinator-0");

    var read = reader.deserialize("kvfleet.transfers", encode(dispatch));

    assertThat(read).isInstanceOfSatisfying(Decoded.Event.class, e -> assertThat(e.envelope().data()).isEqualTo(dispatch));
  }

  @Test
  void skipsEveryOtherRecordAndATombstone() {
    assertThat(reader.deserialize("kvfleet.transfers", encode(new TransferCompleted("t-1", "prefill-0", 1, 1,
        "host/memcpy", "")))).isNull();
    assertThat(reader.deserialize("kvfleet.transfers", encode(new PeerHeartbeat("prefill-0", 1, 3_000)))).isNull();
    assertThat(reader.deserialize("kvfleet.transfers", null)).isNull();
  }

  @Test
  void skipsByTheTypeHeaderWithoutReadingTheBytes() {
    var completed = new org.apache.kafka.common.header.internals.RecordHeaders()
        .add("ce_type", "io.kvfleet.transfer.completed".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    var dispatch = new TransferDispatched("t-1", "prefill-0", "coordinator-0");

    // A dispatch's bytes under a header that names another type are skipped unread, never run.
    assertThat(reader.deserialize("kvfleet.transfers", completed, encode(dispatch))).isNull();
  }

  @Test
  void refusesADispatchHeaderOverAnotherDocument() {
    var dispatched = new org.apache.kafka.common.header.internals.RecordHeaders()
        .add("ce_type", "io.kvfleet.transfer.dispatched".getBytes(java.nio.charset.StandardCharsets.UTF_8));

    var read = reader.deserialize("kvfleet.transfers", dispatched,
        encode(new TransferCompleted("t-1", "prefill-0", 1, 1, "host/memcpy", "")));

    assertThat(read).isInstanceOfSatisfying(Decoded.Malformed.class,
        m -> assertThat(m.reason()).startsWith("type header mismatch"));
  }

  private byte[] encode(io.kvfleet.events.FleetEvent event) {
    return codec.encode(Envelope.of("coordinator-0", 1, 1, Instant.now(), "", event));
  }
}
