package io.kvfleet.events.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.EventType;
import io.kvfleet.events.Samples;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class EnvelopeSerdeTest {
  private static final Envelope JOINED = Samples.envelope(Samples.of(EventType.PEER_JOINED));

  private final EnvelopeSerializer serializer = new EnvelopeSerializer();
  private final EnvelopeDeserializer deserializer = new EnvelopeDeserializer();

  @Test
  void marksEachRecordWithTheCloudEventsContentType() {
    var headers = new RecordHeaders();
    headers.add("content-type", "text/plain".getBytes(StandardCharsets.UTF_8));

    serializer.serialize("kvfleet.nodes", headers, JOINED);

    Header[] contentTypes = java.util.stream.StreamSupport.stream(headers.headers("content-type").spliterator(), false)
        .toArray(Header[]::new);
    assertThat(contentTypes).hasSize(1);
    assertThat(new String(contentTypes[0].value(), StandardCharsets.UTF_8))
        .isEqualTo("application/cloudevents+json");
  }

  @Test
  void namesTheEventsTypeInTheCeTypeHeader() {
    var headers = new RecordHeaders();
    headers.add("ce_type", "io.kvfleet.transfer.completed".getBytes(StandardCharsets.UTF_8));

    serializer.serialize("kvfleet.nodes", headers, JOINED);

    assertThat(headers.headers("ce_type")).hasSize(1);
    assertThat(TypeHeader.of(headers)).contains("io.kvfleet.peer.joined");
  }

  @Test
  void refusesARecordWhoseTypeHeaderAndDocumentDisagree() {
    var headers = new RecordHeaders();
    byte[] bytes = serializer.serialize("kvfleet.nodes", headers, JOINED);
    var lying = new RecordHeaders().add("ce_type", "io.kvfleet.peer.left".getBytes(StandardCharsets.UTF_8));

    assertThat(deserializer.deserialize("kvfleet.nodes", headers, bytes)).isEqualTo(new Decoded.Event(JOINED));
    assertThat(deserializer.deserialize("kvfleet.nodes", lying, bytes)).isInstanceOfSatisfying(Decoded.Malformed.class,
        m -> assertThat(m.reason()).isEqualTo("type header mismatch: ce_type says io.kvfleet.peer.left but the"
            + " document is io.kvfleet.peer.joined"));
  }

  @Test
  void readsARecordWithoutTheTypeHeaderAsBefore() {
    byte[] bytes = serializer.serialize("kvfleet.nodes", JOINED);

    assertThat(deserializer.deserialize("kvfleet.nodes", new RecordHeaders(), bytes)).isEqualTo(new Decoded.Event(JOINED));
  }

  @Test
  void readsWhatItWrote() {
    byte[] bytes = serializer.serialize("kvfleet.nodes", new RecordHeaders(), JOINED);

    assertThat(deserializer.deserialize("kvfleet.nodes", bytes)).isEqualTo(new Decoded.Event(JOINED));
  }

  @Test
  void passesATombstoneThroughAsNull() {
    var headers = new RecordHeaders();

    assertThat(serializer.serialize("kvfleet.nodes", headers, null)).isNull();
    assertThat(headers.toArray()).isEmpty();
  }

  @Test
  void readsATombstoneAsAnEmptyRecord() {
    Decoded decoded = deserializer.deserialize("kvfleet.nodes", null);

    assertThat(decoded).isEqualTo(new Decoded.Malformed("empty record", new byte[0]));
  }

  @Test
  void readsAnUnreadableRecordAsMalformedWithItsBytes() {
    byte[] bytes = "kafka-console-producer test".getBytes(StandardCharsets.UTF_8);

    Decoded decoded = deserializer.deserialize("kvfleet.nodes", new RecordHeaders(), bytes);

    assertThat(decoded).isInstanceOf(Decoded.Malformed.class);
    assertThat(((Decoded.Malformed) decoded).raw()).isEqualTo(bytes);
    assertThat(decoded).isEqualTo(deserializer.deserialize("kvfleet.nodes", bytes.clone()));
  }
}
