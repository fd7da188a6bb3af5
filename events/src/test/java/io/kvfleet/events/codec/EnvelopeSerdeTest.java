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

    Header[] contentTypes = headers.toArray();
    assertThat(contentTypes).hasSize(1);
    assertThat(contentTypes[0].key()).isEqualTo("content-type");
    assertThat(new String(contentTypes[0].value(), StandardCharsets.UTF_8))
        .isEqualTo("application/cloudevents+json");
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
