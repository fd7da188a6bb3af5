package io.kvfleet.events.codec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.EventType;
import io.kvfleet.events.Samples;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferRequested;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Version 2 of the transfer types beside version 1: what is written, and what older documents read as. */
class OlderVersionsTest {
  private static final EventCodec CODEC = new EventCodec();
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Test
  void writesTheSingleRegionFormAsVersion1WithoutTheFieldsVersion2Added() throws Exception {
    var document = (ObjectNode) MAPPER.readTree(CODEC.encode(Samples.envelope(Samples.of(EventType.TRANSFER_REQUESTED))));

    assertThat(document.get("schemaversion").intValue()).isEqualTo(1);
    assertThat(document.get("data").has("parts")).isFalse();
    assertThat(document.get("data").has("requestId")).isFalse();
    assertThat(document.get("data").has("recomputed")).isFalse();
  }

  @Test
  void writesARequestTransferAsVersion2WithItsParts() throws Exception {
    var request = Samples.requestTransfer("x", "p", 1, "d", 1);
    var document = MAPPER.readTree(CODEC.encode(Samples.envelope(request)));

    assertThat(document.get("schemaversion").intValue()).isEqualTo(2);
    assertThat(document.get("data").get("parts")).hasSize(3);
    assertThat(document.get("data").get("requestId").textValue()).isEqualTo("room-1");
  }

  @Test
  void readsAVersion1DocumentAsTheSingleRegionFormInBothReaders() {
    Envelope written = Samples.envelope(Samples.of(EventType.TRANSFER_REQUESTED));
    byte[] raw = CODEC.encode(written);

    var streamed = ((Decoded.Event) CODEC.decode(raw)).envelope();
    var tree = new CloudEventReader(Json.mapper()).readTree(raw);

    assertThat(streamed).isEqualTo(written);
    assertThat(tree).isEqualTo(written);
    assertThat(((TransferRequested) streamed.data()).requestForm()).isFalse();
  }

  @Test
  void roundTripsARequestTransferAndACompletionWithParts() {
    var request = Samples.envelope(Samples.requestTransfer("x", "p", 1, "d", 1));
    var completed = Samples.envelope(Samples.of(EventType.TRANSFER_COMPLETED));

    assertThat(((Decoded.Event) CODEC.decode(CODEC.encode(request))).envelope()).isEqualTo(request);
    assertThat(((Decoded.Event) CODEC.decode(CODEC.encode(completed))).envelope()).isEqualTo(completed);
    assertThat(((TransferCompleted) completed.data()).schemaVersion()).isEqualTo(2);
  }

  @Test
  void refusesAVersion2RequestMissingAFieldVersion2Requires() throws Exception {
    var document = (ObjectNode) MAPPER.readTree(CODEC.encode(Samples.envelope(Samples.requestTransfer("x", "p", 1, "d", 1))));
    ((ObjectNode) document.get("data")).remove("recomputed");

    var decoded = CODEC.decode(MAPPER.writeValueAsString(document).getBytes(StandardCharsets.UTF_8));

    assertThat(decoded).isInstanceOf(Decoded.Malformed.class);
    assertThat(((Decoded.Malformed) decoded).reason()).contains("missing field 'recomputed'");
  }

  @Test
  void readsAVersion1DispatchAsOneWithoutEpochOrderOrSignature() throws Exception {
    var dispatch = new TransferDispatched("t-1", "prefill-0", "coordinator-0");
    var document = (ObjectNode) MAPPER.readTree(CODEC.encode(Samples.envelope(dispatch)));
    document.put("schemaversion", 1);
    ((ObjectNode) document.get("data")).remove(java.util.List.of("sourceEpoch", "order", "orderKeyId", "orderSignature"));

    var decoded = CODEC.decode(MAPPER.writeValueAsBytes(document));

    assertThat(decoded).isInstanceOf(Decoded.Event.class);
    assertThat(((Decoded.Event) decoded).envelope().data()).isEqualTo(dispatch);
  }
}
