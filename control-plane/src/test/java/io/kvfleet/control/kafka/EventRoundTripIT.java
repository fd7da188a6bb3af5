package io.kvfleet.control.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.EventType;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.Samples;
import io.kvfleet.events.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every event type goes through a real broker and comes back equal, in CloudEvents structured mode. */
class EventRoundTripIT {
  static EmbeddedKafka kafka;

  @BeforeAll
  static void startBroker() {
    kafka = EmbeddedKafka.startInTempDir();
    FleetTopics.ensure(kafka.bootstrapServers(), (short) 1);
  }

  @AfterAll
  static void stopBroker() {
    kafka.close();
  }

  @Test
  void everyEventTypeSurvivesAProduceConsumeRoundTrip() throws Exception {
    List<FleetEvent> sent = Arrays.stream(EventType.values()).map(Samples::of).toList();
    try (var publisher = new EventPublisher(kafka.bootstrapServers(), "round-trip", 7, Clock.systemUTC())) {
      for (FleetEvent event : sent) {
        publisher.publish(event, "c-" + event.subject()).get();
      }
    }
    var got = new Collected();
    try (var tail = EventTail.start(kafka.bootstrapServers(), Topics.ALL, got::add)) {
      Await.until("every event type back", Duration.ofSeconds(60), () -> got.size() >= sent.size());
    }
    assertThat(got.malformed()).isZero();
    assertThat(got.envelopes()).extracting(e -> e.data()).containsExactlyInAnyOrderElementsOf(sent);
    assertThat(got.envelopes()).allSatisfy(e -> {
      assertThat(e.producer()).isEqualTo("round-trip");
      assertThat(e.epoch()).isEqualTo(7);
    });
    assertThat(got.envelopes()).extracting(e -> e.sequence())
        .containsExactlyInAnyOrderElementsOf(java.util.stream.LongStream.rangeClosed(1, sent.size()).boxed().toList());
    assertThat(got.records()).allSatisfy(r -> {
      assertThat(r.topic()).isEqualTo(Topics.topicOf(((io.kvfleet.events.codec.Decoded.Event) r.value()).envelope().data()));
      var header = r.headers().lastHeader("content-type");
      assertThat(header).as("content-type header").isNotNull();
      assertThat(new String(header.value(), StandardCharsets.UTF_8)).isEqualTo(Topics.CONTENT_TYPE);
    });
  }
}
