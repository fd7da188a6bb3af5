package io.kvfleet.events.codec;

import static io.kvfleet.events.codec.Documents.CODEC;
import static io.kvfleet.events.codec.Documents.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.EventType;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.Samples;
import io.kvfleet.events.TransferRequested;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class EventCodecTest {

  @Test
  void everyEventTypeHasASampleOfItsOwnType() {
    for (EventType type : EventType.values()) {
      assertThat(EventType.of(Samples.of(type))).as("sample of %s", type).isEqualTo(type);
    }
  }

  @ParameterizedTest
  @EnumSource(EventType.class)
  void roundTripsEveryEventType(EventType type) {
    Envelope envelope = Samples.envelope(Samples.of(type));

    Decoded decoded = CODEC.decode(CODEC.encode(envelope));

    assertThat(decoded).isEqualTo(new Decoded.Event(envelope));
  }

  @ParameterizedTest
  @EnumSource(EventType.class)
  void writesExactlyTheCloudEventsAttributes(EventType type) {
    FleetEvent event = Samples.newest(type);
    JsonNode document = json(Samples.envelope(event));

    assertThat(fieldNames(document)).containsExactlyElementsOf(CloudEvents.ATTRIBUTES);
    assertThat(document.get("specversion").textValue()).isEqualTo("1.0");
    assertThat(document.get("id").textValue()).isEqualTo("evt-" + type.wireName());
    assertThat(document.get("source").textValue()).isEqualTo("/kvfleet/prefill-0");
    assertThat(document.get("type").textValue()).isEqualTo(type.wireName());
    assertThat(document.get("subject").textValue()).isEqualTo(event.subject());
    assertThat(document.get("time").textValue()).isEqualTo("2025-06-01T12:00:00.123456789Z");
    assertThat(document.get("datacontenttype").textValue()).isEqualTo("application/json");
    assertThat(document.get("producer").textValue()).isEqualTo("prefill-0");
    assertThat(document.get("epoch").textValue()).isEqualTo("3");
    assertThat(document.get("sequence").textValue()).isEqualTo("17");
    assertThat(document.get("schemaversion").intValue()).isEqualTo(type.schemaVersion());
    assertThat(document.get("correlationid").textValue()).isEqualTo("batch-7");
  }

  @ParameterizedTest
  @EnumSource(EventType.class)
  void namesTheTypeByItsWireNameAndNeverByAJavaClass(EventType type) {
    byte[] bytes = CODEC.encode(Samples.envelope(Samples.of(type)));

    assertThat(json(Samples.envelope(Samples.of(type))).get("type").textValue()).isEqualTo(type.wireName());
    assertThat(new String(bytes, StandardCharsets.UTF_8))
        .doesNotContain("io.kvfleet.events.")
        .doesNotContain(type.javaType().getSimpleName());
  }

  @ParameterizedTest
  @EnumSource(EventType.class)
  void writesDataFieldsNamedAfterTheRecordComponents(EventType type) {
    JsonNode data = json(Samples.envelope(Samples.newest(type))).get("data");

    List<String> components =
        Arrays.stream(type.javaType().getRecordComponents()).map(c -> c.getName()).toList();
    assertThat(fieldNames(data)).containsExactlyInAnyOrderElementsOf(components);
  }

  @Test
  void writesLongsAsJsonNumbersAndEnumsByName() {
    TransferRequested request = (TransferRequested) Samples.of(EventType.TRANSFER_REQUESTED);
    JsonNode data = json(Samples.envelope(request)).get("data");
    JsonNode region = json(Samples.envelope(Samples.of(EventType.REGION_REGISTERED))).get("data").get("region");

    assertThat(data.get("deadlineMillis").isIntegralNumber()).isTrue();
    assertThat(data.get("deadlineMillis").longValue()).isEqualTo(request.deadlineMillis());
    assertThat(data.get("op").textValue()).isEqualTo("WRITE");
    assertThat(data.get("ranges").get(1).get("destinationOffset").longValue()).isEqualTo(65_536);
    assertThat(region.get("address").longValue()).isEqualTo(0x7f00_0000_0000L);
    assertThat(region.get("memoryType").textValue()).isEqualTo("VRAM");
  }

  @Test
  void namesExtensionsAsCloudEventsRequires() {
    assertThat(CloudEvents.EXTENSIONS).allSatisfy(name -> assertThat(name).matches("[a-z0-9]{1,20}"));
  }

  @Test
  void omitsAnEmptyCorrelationIdAndReadsItBackAsEmpty() {
    Envelope envelope =
        Envelope.of("coordinator-0", 1, 1, Samples.T0, "", Samples.of(EventType.TRANSFER_DISPATCHED));

    byte[] bytes = CODEC.encode(envelope);

    assertThat(Documents.parse(bytes).has("correlationid")).isFalse();
    assertThat(CODEC.decode(bytes)).isEqualTo(new Decoded.Event(envelope));
  }

  private static List<String> fieldNames(JsonNode node) {
    var names = new ArrayList<String>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
