package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.dataplane.InProcessDataPlane;
import io.kvfleet.control.kafka.Await;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two coordinators share the transfers through a Kafka consumer group. When the one that owns the
 * source node's partition stops mid-stream, the other rebuilds that partition from the log and
 * takes over: no transfer is dispatched twice and none is forgotten.
 */
class ScaleOutIT {
  private static final Duration WAIT = Duration.ofSeconds(90);
  private final Fleet fleet = new Fleet();

  @AfterEach
  void close() throws Exception {
    fleet.close();
  }

  @Test
  void theSurvivorTakesOverAStoppedCoordinatorsPartitionWithoutDispatchingTwice() throws Exception {
    Map<String, String> deployments = Map.of(
        "coordinator-a", fleet.startGroupCoordinator("coordinator-a", "coordinators"),
        "coordinator-b", fleet.startGroupCoordinator("coordinator-b", "coordinators"));
    fleet.startAgent("prefill-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    fleet.startAgent("decode-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    int partition = Ownership.partitionOf("prefill-0", fleet.partitions(Topics.TRANSFERS));
    Await.until("a coordinator to own prefill-0's partition", WAIT, () -> owner(partition) != null);
    String first = owner(partition);

    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      if (i == 10) {
        fleet.stop(deployments.get(first));
      }
      ids.add("t-" + i);
      fleet.request("t-" + i, 1, 1, Duration.ofSeconds(60));
      Thread.sleep(100);
    }
    fleet.awaitState("every transfer to end", WAIT,
        s -> ids.stream().allMatch(id -> s.transfer(id).map(t -> t.status().isTerminal()).orElse(false)));
    for (String id : ids) {
      assertThat(fleet.events(id, e -> e instanceof TransferDispatched)).as(id + " dispatches").hasSize(1);
      assertThat(fleet.events(id, e -> e instanceof TransferCompleted)).as(id + " completions").hasSize(1);
    }
    String survivor = first.equals("coordinator-a") ? "coordinator-b" : "coordinator-a";
    assertThat(fleet.status(survivor).ownedTransferPartitions()).contains(partition);
    assertThat(fleet.state().violations()).isEmpty();
  }

  private String owner(int partition) {
    for (String id : List.of("coordinator-a", "coordinator-b")) {
      try {
        if (fleet.status(id).ownedTransferPartitions().contains(partition)) {
          return id;
        }
      } catch (Exception e) {
        // not deployed, or stopped
      }
    }
    return null;
  }
}
