package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.kafka.Await;
import io.kvfleet.events.TransferRejected;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A coordinator's snapshots, and the log they belong to. A snapshot folder kept when its Kafka changed (another cluster, or the fleet topics made
 * again): the snapshot's offsets fit the new log, but its state is of another. Before, the coordinator
 * took it, jumped past the new log's first records and never answered the requests among them.
 */
class ForeignSnapshotIT {
  @TempDir Path dir;

  @Test
  void aCoordinatorDoesNotResumeFromASnapshotOfAnotherClustersTopics() throws Exception {
    var store = new SnapshotStore(dir.resolve("snapshots"));
    try (var a = new Fleet()) {
      a.startCoordinator(c -> c.withSnapshots(store, Duration.ofMillis(300), 1));
      for (int i = 0; i < 3; i++) {
        a.request("a-" + i, 1, 1, Duration.ofSeconds(30));
      }
      Await.until("cluster A's requests answered and a snapshot written", Duration.ofSeconds(60),
          () -> a.log.envelopes().stream().filter(e -> e.data() instanceof TransferRejected).count() == 3
              && !store.files("coordinator").isEmpty()
              && SnapshotStore.read(store.files("coordinator").get(0)).header().applied() >= 6);
    }
    try (var b = new Fleet()) {
      for (int i = 0; i < 10; i++) {
        b.request("b-" + i, 1, 1, Duration.ofSeconds(30));
      }
      b.startCoordinator(c -> c.withSnapshots(store, Duration.ofMillis(300), 1));

      Await.until("every request of cluster B answered", Duration.ofSeconds(30),
          () -> b.log.envelopes().stream().filter(e -> e.data() instanceof TransferRejected).count() == 10);
      var position = b.position("coordinator");
      assertThat(position.startedFrom()).as("the snapshot it started from").isEmpty();
    }
  }

  /** A coordinator that folded fewer events than its snapshot interval asks for wrote none before; a clean stop now writes one. */
  @Test
  void aCleanStopKeepsWhatWasFoldedSinceTheLastSnapshot() throws Exception {
    var store = new SnapshotStore(dir.resolve("stop"));
    long applied;
    try (var fleet = new Fleet()) {
      String deployment = fleet.startCoordinator(c -> c.withSnapshots(store, Duration.ofHours(1), 1_000_000));
      for (int i = 0; i < 3; i++) {
        fleet.request("s-" + i, 1, 1, Duration.ofSeconds(30));
      }
      Await.until("the requests answered", Duration.ofSeconds(60),
          () -> fleet.log.envelopes().stream().filter(e -> e.data() instanceof TransferRejected).count() == 3);
      applied = fleet.position("coordinator").applied();
      assertThat(store.files("coordinator")).as("snapshots before the stop").isEmpty();

      Fleet.await(fleet.vertx.undeploy(deployment));
    }
    assertThat(store.files("coordinator")).singleElement()
        .satisfies(file -> assertThat(SnapshotStore.read(file).header().applied()).isEqualTo(applied));
  }

  /** A quiet fleet, below the event count: a snapshot after ten intervals with anything folded, not only at a stop. */
  @Test
  void aQuietFleetGetsASnapshotAfterTenIntervals() throws Exception {
    var store = new SnapshotStore(dir.resolve("quiet"));
    try (var fleet = new Fleet()) {
      fleet.startCoordinator(c -> c.withSnapshots(store, Duration.ofMillis(300), 1_000_000));
      fleet.request("q-0", 1, 1, Duration.ofSeconds(30));
      Await.until("the request answered", Duration.ofSeconds(60),
          () -> fleet.log.envelopes().stream().anyMatch(e -> e.data() instanceof TransferRejected));

      Await.until("a snapshot of the quiet fleet", Duration.ofSeconds(30), () -> !store.files("coordinator").isEmpty());
    }
  }
}
