package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.Json;
import io.kvfleet.control.kafka.Await;
import io.kvfleet.control.kafka.EmbeddedKafka;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.control.kafka.FleetTopics;
import io.kvfleet.control.kafka.RawRecords;
import io.kvfleet.events.EventType;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.Samples;
import io.kvfleet.events.Topics;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A malformed record, an unknown event type and a newer schema version on the fleet topics do not
 * stop the coordinator: it counts them and goes on folding what follows.
 */
class BadRecordsIT {
  static EmbeddedKafka kafka;
  static Vertx vertx;

  @BeforeAll
  static void start() {
    kafka = EmbeddedKafka.startInTempDir();
    FleetTopics.ensure(kafka.bootstrapServers(), (short) 1);
    vertx = Vertx.vertx();
  }

  @AfterAll
  static void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    kafka.close();
  }

  @Test
  void malformedUnknownAndFutureRecordsAreCountedAndConsumptionGoesOn() throws Exception {
    var joined = Samples.envelope(Samples.of(EventType.PEER_JOINED));
    try (var raw = new RawRecords(kafka.bootstrapServers())) {
      raw.send(Topics.NODES, "prefill-0", "{not json at all");
      raw.send(Topics.NODES, "prefill-0", new byte[] {0, 1, 2, (byte) 0xff});
      raw.send(Topics.NODES, "prefill-0", RawRecords.rewritten(joined,
          Map.of("type", "io.kvfleet.peer.teleported", "id", "future-1", "sequence", 1)));
      raw.send(Topics.NODES, "prefill-0", RawRecords.rewritten(joined,
          Map.of("schemaversion", 99, "id", "future-2", "sequence", 2)));
    }
    var clock = Clock.systemUTC();
    try (var coordinatorEvents = new EventPublisher(kafka.bootstrapServers(), "coordinator-bad", 1, clock);
        var node = new EventPublisher(kafka.bootstrapServers(), "decode-0", 5, clock)) {
      vertx.deployVerticle(new Coordinator(kafka.bootstrapServers(), coordinatorEvents, clock))
          .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
      node.publish(new PeerJoined("decode-0", 5, "127.0.0.1", "", List.of()), "").get();
      node.publish(new PeerHeartbeat("decode-0", 5, 60_000), "").get();

      Await.until("the coordinator to fold the valid events after the bad ones", Duration.ofSeconds(60),
          () -> status("coordinator-bad").applied() >= 4);
      var status = status("coordinator-bad");
      assertThat(status.malformed()).isEqualTo(2);
      assertThat(status.opaque()).isEqualTo(2);
      assertThat(status.applied()).isEqualTo(4);
      assertThat(status.caughtUp()).isTrue();
    }
  }

  static CoordinatorStatus status(String coordinatorId) {
    return statusOf(vertx, coordinatorId);
  }

  /** The status {@code coordinatorId}, deployed on {@code vertx}, reports. */
  static CoordinatorStatus statusOf(Vertx vertx, String coordinatorId) {
    try {
      var reply = vertx.eventBus().<String>request(CoordinatorStatus.address(coordinatorId), "")
          .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
      return Json.read(reply.body(), CoordinatorStatus.class);
    } catch (Exception e) {
      throw new AssertionError("coordinator " + coordinatorId + " did not report its status", e);
    }
  }
}
