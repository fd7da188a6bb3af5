package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.control.kafka.EmbeddedKafka;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.control.kafka.FleetTopics;
import io.kvfleet.control.kafka.OpenClients;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Where a coordinator builds its Kafka clients, seen from the real clients ({@link OpenClients}). */
class CoordinatorClientsIT {
  @Test
  void buildsItsKafkaClientsOffTheEventLoopAloneAndInAGroup() throws Exception {
    try (var kafka = EmbeddedKafka.startInTempDir();
        var alone = new EventPublisher(kafka.bootstrapServers(), "clients-alone", 1, Clock.systemUTC());
        var member = new EventPublisher(kafka.bootstrapServers(), "clients-member", 1, Clock.systemUTC())) {
      String servers = kafka.bootstrapServers();
      OpenClients.watch(servers);
      FleetTopics.ensure(servers, (short) 1);
      var vertx = Vertx.vertx();
      try {
        await(vertx.deployVerticle(new Coordinator(servers, alone, Clock.systemUTC())));
        await(vertx.deployVerticle(new Coordinator(servers, member, Clock.systemUTC()).withGroup("clients-group")));
      } finally {
        await(vertx.close());
      }
      // The log reader and dead-letter producer of each, and the member's group consumer.
      assertThat(OpenClients.made(servers, "clients-alone")).hasSizeGreaterThanOrEqualTo(2);
      assertThat(OpenClients.made(servers, "clients-member-transfers")).hasSize(1);
      assertThat(OpenClients.made(servers, "")).allSatisfy(client ->
          assertThat(client.onEventLoop()).as(client + " built on an event loop").isFalse());
    }
  }

  @Test
  void aStartThatFailsPartWayClosesTheClientsItBuilt() throws Exception {
    try (var kafka = EmbeddedKafka.startInTempDir();
        var events = new EventPublisher(kafka.bootstrapServers(), "clients-failing", 1, Clock.systemUTC())) {
      String servers = kafka.bootstrapServers();
      OpenClients.watch(servers);
      FleetTopics.ensure(servers, (short) 1);
      FoldWatcher failing = new FoldWatcher() {
        @Override
        public Future<?> started(Vertx vertx, CoordinatorView view) {
          return Future.failedFuture("the ops server cannot listen (a drill)");
        }

        @Override
        public void folded(io.kvfleet.events.replay.LogRecord record, io.kvfleet.events.state.FleetState state,
            boolean redelivered) {}
      };
      var vertx = Vertx.vertx();
      try {
        var coordinator = new Coordinator(servers, events, Clock.systemUTC()).withWatcher(failing);
        assertThatThrownBy(() -> await(vertx.deployVerticle(coordinator))).hasMessageContaining("a drill");
        // Its log reader and dead-letter producer, built before the watcher failed, are closed.
        assertThat(OpenClients.made(servers, "clients-failing")).hasSizeGreaterThanOrEqualTo(2);
        assertThat(OpenClients.open(servers, "clients-failing")).as("clients still open").isEmpty();
      } finally {
        await(vertx.close());
      }
    }
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }
}
