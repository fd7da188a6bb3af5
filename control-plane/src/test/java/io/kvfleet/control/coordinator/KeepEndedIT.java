package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.dataplane.InProcessDataPlane;
import io.kvfleet.control.kafka.Await;
import io.kvfleet.control.replay.LogSource;
import io.kvfleet.control.replay.SnapshotCheck;
import io.kvfleet.events.Topics;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.state.FleetState;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A coordinator forgets ended transfers after its keep-ended window of log time, keeps deciding,
 * and still reaches the hash a replay with that window reaches. Only a coordinator's decisions move
 * that clock (a node's or router's time cannot make it forget), so these tests have it decide on a
 * request it rejects (a stale epoch) while they wait; the agents' heartbeats alone move nothing.
 */
class KeepEndedIT {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final Duration WINDOW = Duration.ofSeconds(2);
  private static final int TRANSFERS = 20;
  private final Fleet fleet = new Fleet();
  private int ticks;

  @AfterEach
  void close() throws Exception {
    fleet.close();
  }

  /** What the coordinator reports; a failed request is a failed test. */
  private CoordinatorStatus status() {
    try {
      return fleet.status("coordinator");
    } catch (Exception e) {
      throw new AssertionError("the coordinator did not answer its status request", e);
    }
  }

  /** Waits for {@code what}, a coordinator's decision each half second moving its log time on. */
  private void awaitDeciding(String what, java.util.function.BooleanSupplier done) throws Exception {
    long until = System.nanoTime() + WAIT.toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > until) {
        throw new AssertionError("timed out after " + WAIT + " waiting for " + what);
      }
      fleet.request("tick-" + ticks++, 99, 1, Duration.ofSeconds(30)); // rejected: prefill-0 is at epoch 1
      Thread.sleep(500);
    }
  }

  private void startAgentsAndComplete(int transfers) throws Exception {
    fleet.startAgent("prefill-0", 1, new InProcessDataPlane(), Duration.ofMillis(500));
    fleet.startAgent("decode-0", 1, new InProcessDataPlane(), Duration.ofMillis(500));
    for (int i = 0; i < transfers; i++) {
      fleet.request("t-" + i, 1, 1, Duration.ofSeconds(30));
    }
    fleet.awaitState("the transfers to complete", WAIT, s -> s.counts().completed() == transfers);
  }

  @Test
  void forgetsEndedTransfersOnceItsWindowHasPassedAndReachesTheHashOfAReplayWithTheSameWindow() throws Exception {
    fleet.startCoordinator(c -> c.withKeepEnded(WINDOW));
    startAgentsAndComplete(TRANSFERS);

    awaitDeciding("the coordinator to forget every ended transfer", () -> status().forgottenTransfers() >= TRANSFERS);
    Await.until("the last ticks to be rejected", WAIT, () -> status().inFlightTransfers() == 0);
    var status = fleet.status("coordinator");
    assertThat(status.heldTransfers()).as("the rejected ticks of the last window at most")
        .isLessThanOrEqualTo(ticks);
    assertThat(status.inFlightTransfers()).isZero();
    assertThat(fleet.state().counts().transfers()).as("the log keeps them all").isEqualTo(TRANSFERS + ticks);

    var position = fleet.position("coordinator");
    assertThat(position.keepEndedMillis()).isEqualTo(WINDOW.toMillis());
    var check = SnapshotCheck.against(position.coordinatorId(), position.applied(), position.hash(), position.order(),
        FleetState.keepingEnded(WINDOW), new LogSource.Kafka(fleet.kafka.bootstrapServers(), Topics.ALL), false);
    assertThat(check.replayHash()).isEqualTo(position.hash());
    var keepingAll = SnapshotCheck.against(position.coordinatorId(), position.applied(), position.hash(),
        position.order(), new FleetState(), new LogSource.Kafka(fleet.kafka.bootstrapServers(), Topics.ALL), false);
    assertThat(keepingAll.match()).as("a replay that keeps every transfer is another fold").isFalse();
  }

  @Test
  void takesARequestRepeatingTheIdOfAForgottenTransferAsANewOne() throws Exception {
    fleet.startCoordinator(c -> c.withKeepEnded(WINDOW));
    startAgentsAndComplete(1);
    // t-0 ended before any tick, so it is the first the coordinator forgets
    awaitDeciding("the coordinator to forget t-0", () -> status().forgottenTransfers() >= 1);

    fleet.request("t-0", 1, 1, Duration.ofSeconds(30));

    Await.until("the repeated request to complete", WAIT,
        () -> fleet.events("t-0", e -> e instanceof TransferCompleted).size() == 2);
    assertThat(fleet.events("t-0", e -> e instanceof TransferDispatched)).hasSize(2);
  }

  @Test
  void takesARepeatedIdAsNewEvenAfterADuplicateOfTheEndedTransferCame() throws Exception {
    fleet.startCoordinator(c -> c.withKeepEnded(WINDOW));
    startAgentsAndComplete(1);
    fleet.request("t-0", 1, 1, Duration.ofSeconds(30)); // a duplicate while t-0 is still held: already answered
    // t-0 ended before any tick, so it is the first the coordinator forgets
    awaitDeciding("the coordinator to forget t-0", () -> status().forgottenTransfers() >= 1);

    fleet.request("t-0", 1, 1, Duration.ofSeconds(30));

    Await.until("the request after the window to complete", WAIT,
        () -> fleet.events("t-0", e -> e instanceof TransferCompleted).size() == 2);
    assertThat(fleet.events("t-0", e -> e instanceof TransferDispatched)).hasSize(2);
  }

  @Test
  void writesASnapshotOnCatchingUpHoweverShortTheLog(@TempDir Path snapshots) throws Exception {
    String first = fleet.startCoordinator();
    startAgentsAndComplete(1);
    fleet.stop(first);

    fleet.startCoordinator(c -> c.withSnapshots(new SnapshotStore(snapshots), Duration.ofDays(1), 10_000));

    Await.until("a snapshot of the few events it caught up with", WAIT,
        () -> !new SnapshotStore(snapshots).files("coordinator").isEmpty());
  }

  @Test
  void skipsASnapshotWrittenWithAnotherWindowAndFoldsTheLogFromTheStart(@TempDir Path snapshots) throws Exception {
    String first = fleet.startCoordinator(
        c -> c.withKeepEnded(WINDOW).withSnapshots(new SnapshotStore(snapshots), Duration.ofMillis(500), 1));
    startAgentsAndComplete(3);
    Await.until("a snapshot", WAIT, () -> !new SnapshotStore(snapshots).files("coordinator").isEmpty());
    fleet.stop(first);

    fleet.startCoordinator(c -> c.withKeepEnded(Duration.ofMinutes(10))
        .withSnapshots(new SnapshotStore(snapshots), Duration.ofDays(1), Long.MAX_VALUE));

    Await.until("the new coordinator to catch up", WAIT, () -> status().caughtUp());
    var position = fleet.position("coordinator");
    assertThat(position.startedFrom()).as("no snapshot taken").isEmpty();
    assertThat(fleet.status("coordinator").heldTransfers()).isEqualTo(3);
  }
}
