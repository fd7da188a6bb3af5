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
import org.apache.kafka.clients.producer.ProducerConfig;
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

  @Test
  void aCoordinatorGivenBackItsPartitionDoesNotDecideAgainWhatItsProducerStillHolds() throws Exception {
    // A second coordinator joining is a rebalance that takes every partition from the first and
    // gives some back (Kafka's default range assignment by name: the first gets partitions 0 and
    // 1, the second 2). The first's producer holds its answers 8 s (linger), so its dispatches are
    // still on their way when it is given prefill-0's partition back: it must not decide those
    // requests again.
    int partition = Ownership.partitionOf("prefill-0", fleet.partitions(Topics.TRANSFERS));
    String slow = partition == 2 ? "coordinator-z" : "coordinator-a"; // the name that is given it back
    fleet.startGroupCoordinator(slow, "coordinators", Map.of(ProducerConfig.LINGER_MS_CONFIG, 8_000));
    fleet.startAgent("prefill-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    fleet.startAgent("decode-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    Await.until(slow + " to own prefill-0's partition", WAIT, () -> owns(slow, partition));

    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      ids.add("held-" + i);
      fleet.request("held-" + i, 1, 1, Duration.ofSeconds(60));
    }
    fleet.startGroupCoordinator("coordinator-m", "coordinators"); // between the two names
    fleet.awaitState("every transfer to end", WAIT,
        s -> ids.stream().allMatch(id -> s.transfer(id).map(t -> t.status().isTerminal()).orElse(false)));
    Await.until(slow + " to be given prefill-0's partition back", WAIT, () -> owns(slow, partition));
    awaitLanded(slow); // what it decided on taking the partition back (8 s linger)
    assertThat(fleet.state().violations()).isEmpty();
    for (String id : ids) {
      assertThat(fleet.events(id, e -> e instanceof TransferDispatched)).as(id + " dispatches").hasSize(1);
    }
  }

  @Test
  void aCoordinatorThatLosesAPartitionLetsItGoOnlyOnceKafkaHasItsDecisions() throws Exception {
    // The slow coordinator owns every partition; its producer holds its answers 20 s (linger, longer
    // than the second one's start). A second one joins and is given prefill-0's partition (range assignment by name: of two
    // members the first gets partitions 0 and 1, the second 2). The slow one's dispatches are
    // still in its producer at the rebalance: the newcomer must not read the partition's end and
    // decide those requests again before they land.
    int partition = Ownership.partitionOf("prefill-0", fleet.partitions(Topics.TRANSFERS));
    String slow = partition == 2 ? "coordinator-a" : "coordinator-z";
    fleet.startGroupCoordinator(slow, "coordinators", Map.of(ProducerConfig.LINGER_MS_CONFIG, 20_000));
    fleet.startAgent("prefill-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    fleet.startAgent("decode-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    Await.until(slow + " to own prefill-0's partition", WAIT, () -> owns(slow, partition));

    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      ids.add("lost-" + i);
      fleet.request("lost-" + i, 1, 1, Duration.ofSeconds(60));
    }
    fleet.startGroupCoordinator("coordinator-m", "coordinators");
    fleet.awaitState("every transfer to end", WAIT,
        s -> ids.stream().allMatch(id -> s.transfer(id).map(t -> t.status().isTerminal()).orElse(false)));
    Await.until("the newcomer to own prefill-0's partition", WAIT, () -> owns("coordinator-m", partition));
    awaitLanded(slow);
    assertThat(fleet.state().violations()).isEmpty();
    for (String id : ids) {
      assertThat(fleet.events(id, e -> e instanceof TransferDispatched)).as(id + " dispatches").hasSize(1);
    }
  }

  /** Waits until Kafka has acknowledged everything {@code coordinator} decided, so that the count of dispatches is whole. */
  private void awaitLanded(String coordinator) throws InterruptedException {
    Await.until(coordinator + "'s decisions to land", WAIT, () -> fleet.coordinatorEvents(coordinator).waiting() == 0);
  }

  private boolean owns(String coordinator, int partition) {
    try {
      return fleet.status(coordinator).ownedTransferPartitions().contains(partition);
    } catch (Exception e) {
      return false;
    }
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
