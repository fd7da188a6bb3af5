package io.kvfleet.events;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TopicsTest {

  @ParameterizedTest
  @EnumSource(EventType.class)
  void writesAnEnvelopeToItsTypesTopicKeyedByItsNode(EventType type) {
    Envelope envelope = Samples.envelope(Samples.of(type));

    assertThat(Topics.topicOf(envelope)).isEqualTo(type.topic());
    assertThat(Topics.keyOf(envelope)).isEqualTo("prefill-0");
  }

  @ParameterizedTest
  @EnumSource(EventType.class)
  void writesAnOpaqueEventToTheTopicItsWireNameBelongsTo(EventType type) {
    var opaque = new OpaqueEvent("n1", "", type.wireName() + ".v9", 9, "{}");

    assertThat(Topics.topicOf(opaque)).isEqualTo(type.topic());
    assertThat(Topics.keyOf(opaque)).isEqualTo("n1");
  }

  @Test
  void aNodesOwnEventsShareOneTopicSoKafkaKeepsThemInOrder() {
    for (EventType type : EventType.values()) {
      if (!type.wireName().startsWith("io.kvfleet.transfer.")) {
        assertThat(type.topic()).as(type.wireName()).isEqualTo(Topics.NODES);
      }
    }
  }
}
