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
      Await.until("every event type back", Duration.ofSeconds(60), () -> mine(got).size() >= sent.size());
    }
    assertThat(got.malformed()).isZero();
    assertThat(mine(got)).extracting(e -> e.data()).containsExactlyInAnyOrderElementsOf(sent);
    assertThat(mine(got)).allSatisfy(e -> assertThat(e.epoch()).isEqualTo(7));
    assertThat(mine(got)).extracting(e -> e.sequence())
        .containsExactlyInAnyOrderElementsOf(java.util.stream.LongStream.rangeClosed(1, sent.size()).boxed().toList());
    assertThat(got.records()).allSatisfy(r -> {
      assertThat(r.topic()).isEqualTo(Topics.topicOf(((io.kvfleet.events.codec.Decoded.Event) r.value()).envelope().data()));
      var header = r.headers().lastHeader("content-type");
      assertThat(header).as("content-type header").isNotNull();
      assertThat(new String(header.value(), StandardCharsets.UTF_8)).isEqualTo(Topics.CONTENT_TYPE);
    });
  }

  /**
   * An event larger than a Kafka record was numbered, then refused by the producer: every replay read the number
   * it took as a lost event (SEQUENCE_GAP). It is refused at once now, naming its size, and takes no number.
   */
  @Test
  void anEventTooLargeForARecordIsRefusedAtOnceAndTakesNoSequenceNumber() throws Exception {
    var huge = new io.kvfleet.events.PeerLeft("node-big", 3, "x".repeat(2_000_000));
    var after = new io.kvfleet.events.PeerLeft("node-big", 3, "small");
    try (var publisher = new EventPublisher(kafka.bootstrapServers(), "too-large", 3, Clock.systemUTC())) {
      assertThat(publisher.tooLarge(huge, "c")).get().extracting(Throwable::getMessage).asString()
          .contains("peer.left for node-big", "over the 1047552 a Kafka record may hold");
      assertThat(publisher.tooLarge(after, "c")).isEmpty();

      var refused = publisher.publish(huge, "c");
      assertThat(refused).isCompletedExceptionally();
      assertThat(refused.handle((ok, error) -> io.kvfleet.control.KvfleetException.isEventTooLarge(error)).get())
          .isTrue();
      assertThat(publisher.publish(after, "c").get().sequence()).isEqualTo(1);
    }
    var got = new Collected();
    try (var tail = EventTail.start(kafka.bootstrapServers(), List.of(Topics.NODES), got::add)) {
      Await.until("the small event back", Duration.ofSeconds(60),
          () -> got.envelopes().stream().anyMatch(e -> e.producer().equals("too-large")));
    }
    assertThat(got.envelopes()).filteredOn(e -> e.producer().equals("too-large")).singleElement()
        .satisfies(e -> assertThat(e.sequence()).isEqualTo(1));
  }

  /** This test's events: the broker is shared with the other tests of the class. */
  private static List<io.kvfleet.events.Envelope> mine(Collected got) {
    return got.envelopes().stream().filter(e -> e.producer().equals("round-trip")).toList();
  }
}
