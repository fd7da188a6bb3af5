package io.kvfleet.events.codec;

import static io.kvfleet.events.codec.Documents.CODEC;
import static io.kvfleet.events.codec.Documents.data;
import static io.kvfleet.events.codec.Documents.edited;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.EventType;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.OpaqueEvent;
import io.kvfleet.events.Samples;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class EventCodecCompatibilityTest {
  private static final Envelope JOINED = Samples.envelope(Samples.of(EventType.PEER_JOINED));
  private static final Envelope FAILED = Samples.envelope(Samples.of(EventType.TRANSFER_FAILED));

  @Test
  void ignoresUnknownFieldsInDataAndUnknownAttributes() {
    byte[] bytes =
        edited(
            JOINED,
            doc -> {
              doc.put("tracestate", "vendor=1");
              data(doc).put("gpuModel", "H200");
              ((ObjectNode) data(doc).withArray("capabilities").get(0)).put("abi", 2);
            });

    assertThat(CODEC.decode(bytes)).isEqualTo(new Decoded.Event(JOINED));
  }

  @Test
  void keepsAnUnknownTypeAsAnOpaqueEvent() {
    byte[] bytes = migrated("{\"nodeId\":\"n9\",\"to\":[1,2.50]}");

    FleetEvent data = envelopeOf(CODEC.decode(bytes)).data();

    assertThat(data)
        .isEqualTo(
            new OpaqueEvent("n9", "n9", "io.kvfleet.peer.migrated", 1, "{\"nodeId\":\"n9\",\"to\":[1,2.50]}"));
  }

  @Test
  void keepsANewerSchemaVersionOfAKnownTypeOpaque() {
    byte[] bytes = edited(JOINED, doc -> doc.put("schemaversion", 2));

    Envelope decoded = envelopeOf(CODEC.decode(bytes));

    assertThat(decoded.data()).isInstanceOf(OpaqueEvent.class);
    OpaqueEvent opaque = (OpaqueEvent) decoded.data();
    assertThat(opaque.wireType()).isEqualTo("io.kvfleet.peer.joined");
    assertThat(opaque.schemaVersion()).isEqualTo(2);
    assertThat(opaque.nodeId()).isEqualTo("prefill-0");
    assertThat(Documents.parse(opaque.rawData().getBytes())).isEqualTo(Documents.json(JOINED).get("data"));
    assertThat(decoded.producer()).isEqualTo(JOINED.producer());
    assertThat(decoded.sequence()).isEqualTo(JOINED.sequence());
  }

  @Test
  void takesTheNodeOfAnOpaqueTransferEventFromItsSourceNode() {
    byte[] bytes = edited(FAILED, doc -> doc.put("schemaversion", 7));

    OpaqueEvent opaque = (OpaqueEvent) envelopeOf(CODEC.decode(bytes)).data();

    assertThat(opaque.nodeId()).isEqualTo("prefill-0");
    assertThat(opaque.subject()).isEqualTo("xfer-1");
  }

  @Test
  void writesAnOpaqueEventBackAsItWasRead() {
    byte[] original = migrated("{\"ratio\":0.10000000000000000001,\"at\":[10,2.50]}");
    Envelope opaque = envelopeOf(CODEC.decode(original));

    byte[] again = CODEC.encode(opaque);

    assertThat(new String(again, StandardCharsets.UTF_8))
        .contains("\"data\":{\"ratio\":0.10000000000000000001,\"at\":[10,2.50]}");
    assertThat(CODEC.decode(again)).isEqualTo(new Decoded.Event(opaque));
  }

  @Test
  void readsEpochAndSequenceWrittenAsJsonNumbers() {
    byte[] bytes =
        edited(
            JOINED,
            doc -> {
              doc.put("epoch", 3);
              doc.put("sequence", 17);
            });

    assertThat(CODEC.decode(bytes)).isEqualTo(new Decoded.Event(JOINED));
  }

  @Test
  void readsTimestampsWithAnOffset() {
    byte[] bytes = edited(JOINED, doc -> doc.put("time", "2025-06-01t14:00:00+02:00"));

    assertThat(envelopeOf(CODEC.decode(bytes)).time()).isEqualTo(Instant.parse("2025-06-01T12:00:00Z"));
  }

  @Test
  void readsAContentTypeWithACharset() {
    byte[] bytes = edited(JOINED, doc -> doc.put("datacontenttype", "application/json; charset=utf-8"));

    assertThat(CODEC.decode(bytes)).isEqualTo(new Decoded.Event(JOINED));
  }

  @Test
  void ignoresTheSubjectAttributeOfAKnownTypeInFavourOfItsData() {
    byte[] bytes = edited(JOINED, (ObjectNode doc) -> doc.put("subject", "someone-else"));

    assertThat(envelopeOf(CODEC.decode(bytes)).subject()).isEqualTo("prefill-0");
  }

  /** A document of a type this build does not know, written as text so no parser touches it. */
  private static byte[] migrated(String data) {
    String document =
        """
        {"specversion":"1.0","id":"e1","source":"/kvfleet/n9","type":"io.kvfleet.peer.migrated",\
        "subject":"n9","time":"2025-06-01T12:00:00Z","producer":"n9","epoch":"4","sequence":"2",\
        "schemaversion":1,"data":%s}"""
            .formatted(data);
    return document.getBytes(StandardCharsets.UTF_8);
  }

  private static Envelope envelopeOf(Decoded decoded) {
    assertThat(decoded).isInstanceOf(Decoded.Event.class);
    return ((Decoded.Event) decoded).envelope();
  }
}
