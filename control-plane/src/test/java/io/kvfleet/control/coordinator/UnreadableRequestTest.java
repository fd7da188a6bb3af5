package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.OpaqueEvent;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EventCodec;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A transfer request this build cannot read is answered when its id is readable, and only then. */
class UnreadableRequestTest {
  private static final String DATA = "{\"transferId\":\"t9\",\"sourceNode\":\"prefill-0\",\"ranges\":[]}";

  @Test
  void aNewerSchemaVersionIsSchemaUnsupported() {
    var opaque = new OpaqueEvent("prefill-0", "t9", "io.kvfleet.transfer.requested", 7, DATA);
    var decoded = new Decoded.Event(Envelope.of("router", 1, 1, Instant.EPOCH, "", opaque));

    assertThat(UnreadableRequest.answer(decoded)).get().satisfies(r -> {
      assertThat(r.transferId()).isEqualTo("t9");
      assertThat(r.sourceNode()).isEqualTo("prefill-0");
      assertThat(r.reason()).isEqualTo(ReasonCodes.SCHEMA_UNSUPPORTED);
    });
  }

  @Test
  void dataItsVersionRefusesIsAnInvalidRequestWithTheCodecsReason() {
    String doc = "{\"specversion\":\"1.0\",\"type\":\"io.kvfleet.transfer.requested\",\"data\":" + DATA + "}";
    var decoded = new EventCodec().decode(doc.getBytes(StandardCharsets.UTF_8));
    assertThat(decoded).isInstanceOf(Decoded.Malformed.class);

    assertThat(UnreadableRequest.answer(decoded)).get().satisfies(r -> {
      assertThat(r.reason()).isEqualTo(ReasonCodes.INVALID_REQUEST);
      assertThat(r.detail()).isEqualTo(((Decoded.Malformed) decoded).reason());
    });
  }

  /** An id no event may carry threw in the coordinator's fold (an unhandled exception, its bookkeeping skipped). */
  @Test
  void aRequestWhoseIdNoAnswerCanCarryStaysUnanswered() {
    String data = DATA.replace("\"t9\"", "\"" + "t".repeat(2_000) + "\"");
    String doc = "{\"specversion\":\"1.0\",\"type\":\"io.kvfleet.transfer.requested\",\"data\":" + data + "}";
    var malformed = new EventCodec().decode(doc.getBytes(StandardCharsets.UTF_8));
    var opaque = new Decoded.Event(Envelope.of("router", 1, 1, Instant.EPOCH, "",
        new OpaqueEvent("prefill-0", "t", "io.kvfleet.transfer.requested", 7, data)));

    assertThat(UnreadableRequest.answer(malformed)).isEmpty();
    assertThat(UnreadableRequest.answer(opaque)).isEmpty();
  }

  @Test
  void aRequestUnderALyingTypeHeaderIsNeverAnswered() {
    var request = new io.kvfleet.events.TransferRequested("t9", "prefill-0", 1, "kv", "decode-0", 1, "kv",
        io.kvfleet.events.TransferOp.WRITE, java.util.List.of(new io.kvfleet.events.ByteRange(0, 0, 4096)),
        Instant.now().plusSeconds(60).toEpochMilli(), false);
    byte[] bytes = new EventCodec().encode(Envelope.of("router", 1, 1, Instant.EPOCH, "t9", request));
    var lying = new org.apache.kafka.common.header.internals.RecordHeaders()
        .add("ce_type", "io.kvfleet.transfer.completed".getBytes(StandardCharsets.UTF_8));
    var decoded = new io.kvfleet.events.codec.EnvelopeDeserializer().deserialize("kvfleet.transfers", lying, bytes);

    assertThat(decoded).isInstanceOf(Decoded.Malformed.class);
    assertThat(UnreadableRequest.answer(decoded, io.kvfleet.events.trust.Verifier.off())).isEmpty();
  }

  @Test
  void nothingWithoutAReadableIdOrForAnotherType() {
    var noId = new OpaqueEvent("", "", "io.kvfleet.transfer.requested", 7, "{\"sourceNode\":\"prefill-0\"}");
    var other = new OpaqueEvent("", "", "io.kvfleet.transfer.teleported", 1, DATA);
    assertThat(UnreadableRequest.answer(new Decoded.Event(Envelope.of("r", 1, 1, Instant.EPOCH, "", noId)))).isEmpty();
    assertThat(UnreadableRequest.answer(new Decoded.Event(Envelope.of("r", 1, 2, Instant.EPOCH, "", other)))).isEmpty();
    assertThat(UnreadableRequest.answer(new Decoded.Malformed("not JSON", "{x".getBytes(StandardCharsets.UTF_8))))
        .isEmpty();
  }
}
