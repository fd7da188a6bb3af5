package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.kafka.Await;
import io.kvfleet.events.TransferRejected;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A coordinator's snapshot folder kept when its Kafka changed (another cluster, or the fleet topics made
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
}
