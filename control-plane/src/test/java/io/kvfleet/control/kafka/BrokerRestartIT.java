package io.kvfleet.control.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.MemoryType;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.Topics;
import io.kvfleet.events.state.FleetState;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** Outcomes published while the broker is down wait, then land in order, once each. */
class BrokerRestartIT {

  @Test
  void outcomesPublishedDuringABrokerRestartAreNeitherLostNorDuplicated() throws Exception {
    try (var kafka = EmbeddedKafka.startInTempDir()) {
      FleetTopics.ensure(kafka.bootstrapServers(), (short) 1);
      List<CompletableFuture<?>> sent = new ArrayList<>();
      try (var agent = new EventPublisher(kafka.bootstrapServers(), "prefill-0", 1, Clock.systemUTC())) {
        for (int i = 0; i < 300; i++) {
          if (i == 100) {
            kafka.stopServer();
          }
          if (i == 200) {
            assertThat(agent.waiting()).as("events wait while Kafka is down").isPositive();
            kafka.restart();
          }
          sent.add(agent.publish(registered(i), "batch"));
          Thread.sleep(5);
        }
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
      }
      var got = new Collected();
      try (var tail = EventTail.start(kafka.bootstrapServers(), Topics.ALL, got::add)) {
        Await.until("300 registrations", Duration.ofSeconds(60), () -> got.size() >= 300);
        Thread.sleep(500); // a duplicate would arrive right behind
      }
      assertThat(got.size()).isEqualTo(300);
      assertThat(got.envelopes()).extracting(e -> e.sequence())
          .containsExactlyElementsOf(LongStream.rangeClosed(1, 300).boxed().toList());
      var counts = FleetState.fold(got.envelopes()).counts();
      assertThat(counts.missingSequences()).isZero();
      assertThat(counts.duplicateSequences()).isZero();
    }
  }

  @Test
  void refusesNewEventsWhenItsBufferIsFullInsteadOfDroppingThem() throws Exception {
    try (var kafka = EmbeddedKafka.startInTempDir()) {
      FleetTopics.ensure(kafka.bootstrapServers(), (short) 1);
      try (var agent = new EventPublisher(kafka.bootstrapServers(), "prefill-0", 1, Clock.systemUTC(), 5)) {
        agent.publish(registered(0), "warm-up").get(30, TimeUnit.SECONDS);
        kafka.stopServer();
        for (int i = 1; i <= 5; i++) {
          agent.publish(registered(i), "batch");
        }
        var refused = agent.publish(registered(6), "batch");
        assertThat(refused).isCompletedExceptionally();
        assertThat(refused.exceptionNow()).hasMessageContaining("5 events are already waiting for Kafka");
        kafka.restart();
        Await.until("the buffer to drain", Duration.ofSeconds(60), () -> agent.waiting() == 0);
      }
    }
  }

  private static RegionRegistered registered(int i) {
    var spec = new RegionSpec("kv_data-" + i, RegionKind.KV, MemoryType.DRAM, -1, 0x1000, 4096, 4096, "kv_data", i);
    return new RegionRegistered("prefill-0", 1, spec, "ucx", "key-" + i);
  }
}
