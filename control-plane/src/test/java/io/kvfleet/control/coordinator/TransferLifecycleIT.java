package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.dataplane.InProcessDataPlane;
import io.kvfleet.control.kafka.Await;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferTimedOut;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.PeerStatus;
import io.kvfleet.events.state.TransferStatus;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every requested transfer ends in exactly one terminal event, on a real broker with real agents:
 * completion, duplicate ids, deadlines, lost and departed peers, stale epochs and a coordinator
 * restart.
 */
class TransferLifecycleIT {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private final Fleet fleet = new Fleet();

  @AfterEach
  void close() throws Exception {
    fleet.close();
  }

  @Test
  void answersADuplicateRequestOnce() throws Exception {
    fleet.startCoordinator();
    fleet.startAgent("prefill-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    fleet.startAgent("decode-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    fleet.request("t-dup", 1, 1, Duration.ofSeconds(30));
    fleet.request("t-dup", 1, 1, Duration.ofSeconds(30));
    fleet.request("t-after", 1, 1, Duration.ofSeconds(30));
    fleet.awaitState("both transfers to complete", WAIT, s -> s.counts().completed() == 2);
    assertThat(fleet.events("t-dup", e -> e instanceof TransferDispatched)).hasSize(1);
    assertThat(fleet.events("t-dup", e -> e instanceof TransferCompleted)).hasSize(1);
  }

  @Test
  void timesOutATransferThatPassesItsDeadlineAndCountsTheAgentsLaterReportAsLate() throws Exception {
    fleet.startCoordinator();
    var stuck = new StuckDataPlane();
    fleet.startAgent("prefill-0", 1, stuck, Duration.ofSeconds(1));
    fleet.startAgent("decode-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    fleet.request("t-slow", 1, 1, Duration.ofMillis(1500));
    fleet.awaitState("the deadline to end it", WAIT,
        s -> s.transfer("t-slow").map(t -> t.status() == TransferStatus.TIMED_OUT).orElse(false));
    assertThat(fleet.events("t-slow", e -> e instanceof TransferTimedOut)).hasSize(1);
    stuck.release();
    fleet.awaitState("the agent's late report", WAIT, s -> s.counts().lateOutcomes() == 1);
    assertThat(fleet.state().transfer("t-slow").orElseThrow().status()).isEqualTo(TransferStatus.TIMED_OUT);
    assertThat(fleet.state().violations()).isEmpty();
  }

  @Test
  void doesNotRunAnOrderWhoseDeadlinePassedWhileItWaitedBehindAnother() throws Exception {
    fleet.startCoordinator();
    var stuck = new StuckDataPlane();
    fleet.startAgent("prefill-0", 1, stuck, Duration.ofSeconds(1));
    fleet.startAgent("decode-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    fleet.request("t-long", 1, 1, Duration.ofSeconds(60));
    fleet.request("t-queued", 1, 1, Duration.ofSeconds(3)); // dispatched in time, queued behind t-long
    fleet.awaitState("the queued one to time out", WAIT,
        s -> s.transfer("t-queued").map(t -> t.status() == TransferStatus.TIMED_OUT).orElse(false));

    stuck.release();

    fleet.awaitState("both to be reported by the agent", WAIT, s -> s.counts().completed() == 1
        && s.counts().lateOutcomes() == 1);
    assertThat(fleet.events("t-queued", e -> e instanceof TransferCompleted)).as("not run after its deadline")
        .isEmpty();
    assertThat(fleet.events("t-queued", e -> e instanceof TransferFailed)).singleElement()
        .isInstanceOfSatisfying(TransferFailed.class, f -> {
          assertThat(f.reason()).isEqualTo(ReasonCodes.DEADLINE_PASSED);
          assertThat(f.detail()).contains("passed before prefill-0 could start it");
        });
    assertThat(fleet.state().violations()).isEmpty();
  }

  @Test
  void aTransferStuckOnADeadPeerDoesNotHoldUpTransfersToOtherPeers() throws Exception {
    fleet.startCoordinator();
    var stuck = new StuckDataPlane("decode-0");
    fleet.startAgent("prefill-0", 1, stuck, Duration.ofSeconds(1));
    fleet.startAgent("decode-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    fleet.startAgent("decode-1", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    fleet.request("t-dead-peer", 1, "decode-0", 1, Duration.ofSeconds(60));
    fleet.awaitState("the transfer to the dead peer to be dispatched", WAIT,
        s -> s.transfer("t-dead-peer").map(t -> t.status() == TransferStatus.DISPATCHED).orElse(false));

    fleet.request("t-live-peer", 1, "decode-1", 1, Duration.ofSeconds(30));

    fleet.awaitState("the transfer to the live peer to complete while the other hangs", Duration.ofSeconds(20),
        s -> s.transfer("t-live-peer").map(t -> t.status() == TransferStatus.COMPLETED).orElse(false));
    assertThat(fleet.state().transfer("t-dead-peer").orElseThrow().status()).isEqualTo(TransferStatus.DISPATCHED);
    stuck.release();
  }

  @Test
  void publishesAnOutcomeItsFullEventBufferRefusedOnceKafkaIsBack() throws Exception {
    fleet.startCoordinator();
    var stuck = new StuckDataPlane();
    fleet.agentEventCapacity(1);
    // Heartbeats every 30 s: a heartbeat the full buffer refuses in the outage lets the lease lapse a
    // period later at the earliest, long after the test is done. This is about the buffer, not fencing.
    fleet.startAgent("prefill-0", 1, stuck, Duration.ofSeconds(30));
    fleet.agentEventCapacity(EventPublisher.DEFAULT_CAPACITY);
    fleet.startAgent("decode-0", 1, new InProcessDataPlane(), Duration.ofSeconds(30));
    fleet.request("t-held", 1, 1, Duration.ofMinutes(5));
    fleet.awaitState("the transfer to be dispatched", WAIT,
        s -> s.transfer("t-held").map(t -> t.status() == TransferStatus.DISPATCHED).orElse(false));

    fleet.kafka.stopServer();
    var events = fleet.agentEvents("prefill-0");
    events.publish(new PeerHeartbeat("prefill-0", 1, 30_000), "prefill-0"); // a heartbeat in the outage fills the buffer of one
    assertThat(events.waiting()).as("prefill-0's buffer").isEqualTo(events.capacity());
    stuck.release(); // the transfer completes now: the full buffer refuses its outcome
    Await.until("the outcome to be refused and held", WAIT, () -> fleet.agent("prefill-0").outcomesHeldBack() == 1);
    fleet.kafka.restart();

    fleet.awaitState("the refused outcome to land once Kafka is back", WAIT,
        s -> s.transfer("t-held").map(t -> t.status() == TransferStatus.COMPLETED).orElse(false));
    assertThat(fleet.events("t-held", e -> e instanceof TransferCompleted)).hasSize(1);
    assertThat(fleet.agent("prefill-0").epoch()).as("no fence: the lease held").isEqualTo(1);
    Await.until("nothing held back", WAIT, () -> fleet.agent("prefill-0").outcomesHeldBack() == 0);
  }

  @Test
  void publishesEveryEndingItsFullEventBufferRefusedOnceKafkaIsBack() throws Exception {
    fleet.coordinatorEventCapacity(1);
    fleet.startCoordinator();
    var stuck = new StuckDataPlane();
    fleet.startAgent("prefill-0", 1, stuck, Duration.ofSeconds(1));
    fleet.startAgent("decode-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    fleet.request("t-a", 1, 1, Duration.ofSeconds(5));
    fleet.request("t-b", 1, 1, Duration.ofSeconds(5));
    fleet.awaitState("both to be dispatched", WAIT, s -> Stream.of("t-a", "t-b").allMatch(
        id -> s.transfer(id).map(t -> t.status() == TransferStatus.DISPATCHED).orElse(false)));

    fleet.kafka.stopServer();
    Thread.sleep(6_000); // both deadlines pass: the coordinator's buffer of one takes one time-out, refuses the other
    fleet.kafka.restart();

    fleet.awaitState("both to time out once Kafka is back", WAIT, s -> Stream.of("t-a", "t-b").allMatch(
        id -> s.transfer(id).map(t -> t.status() == TransferStatus.TIMED_OUT).orElse(false)));
    stuck.release();
    assertThat(fleet.events("t-b", e -> e instanceof TransferTimedOut)).hasSize(1);
  }

  @Test
  void endsInFlightTransfersWithPeerLostWhenAPeerMissesItsLease() throws Exception {
    fleet.startCoordinator();
    fleet.startAgent("prefill-0", 1, new StuckDataPlane(), Duration.ofSeconds(1));
    fleet.startAgent("decode-0", 1, new InProcessDataPlane(), Duration.ofMillis(300));
    fleet.request("t-orphan", 1, 1, Duration.ofSeconds(60));
    fleet.awaitState("the transfer to be dispatched", WAIT,
        s -> s.transfer("t-orphan").map(t -> t.status() == TransferStatus.DISPATCHED).orElse(false));
    long silencedAt = System.nanoTime();
    fleet.agent("decode-0").crash();
    fleet.awaitState("decode-0 to be declared lost", WAIT, TransferLifecycleIT::decodeIsLost);
    fleet.awaitState("the in-flight transfer to fail", WAIT,
        s -> s.transfer("t-orphan").map(t -> t.status().isTerminal()).orElse(false));
    long tookMillis = (System.nanoTime() - silencedAt) / 1_000_000;
    var failed = fleet.events("t-orphan", e -> e instanceof TransferFailed);
    assertThat(failed).singleElement().satisfies(e -> assertThat(((TransferFailed) e).reason()).isEqualTo(ReasonCodes.PEER_LOST));
    assertThat(fleet.events("decode-0", e -> e instanceof PeerLost)).hasSize(1);
    assertThat(tookMillis).as("ended within the lease, not after a long timeout").isLessThan(30_000);
  }

  @Test
  void failsAnInFlightTransferWithPeerLeftWhenItsDestinationShutsDown() throws Exception {
    fleet.startCoordinator();
    fleet.startAgent("prefill-0", 1, new StuckDataPlane(), Duration.ofSeconds(1));
    String decode = fleet.startAgent("decode-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    fleet.request("t-left", 1, 1, Duration.ofMinutes(10));
    fleet.awaitState("the transfer to be dispatched", WAIT,
        s -> s.transfer("t-left").map(t -> t.status() == TransferStatus.DISPATCHED).orElse(false));
    fleet.stop(decode);
    fleet.awaitState("the in-flight transfer to end", WAIT,
        s -> s.transfer("t-left").map(t -> t.status().isTerminal()).orElse(false));
    assertThat(fleet.events("t-left", e -> e instanceof TransferFailed)).as("not left to its 10-minute deadline")
        .singleElement().isInstanceOfSatisfying(TransferFailed.class, f -> {
          assertThat(f.reason()).isEqualTo(ReasonCodes.PEER_LEFT);
          assertThat(f.detail()).isEqualTo("decode-0 epoch 1 left while it was in flight");
        });
    assertThat(fleet.state().violations()).isEmpty();
  }

  @Test
  void aStoppingSourceFinishesTheTransferItRunsAndRefusesNewOnesWithPeerLeft() throws Exception {
    fleet.startCoordinator();
    var stuck = new StuckDataPlane();
    String prefill = fleet.startAgent("prefill-0", 1, stuck, Duration.ofSeconds(1));
    fleet.startAgent("decode-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    fleet.request("t-running", 1, 1, Duration.ofMinutes(10));
    fleet.awaitState("t-running to be dispatched", WAIT, s -> status(s, "t-running") == TransferStatus.DISPATCHED);

    fleet.agent("prefill-0").withStopDrain(Duration.ofMinutes(2)); // never runs out before the release below
    var stopping = fleet.vertx.undeploy(prefill);
    Await.until("prefill-0 to drain", WAIT, () -> fleet.agent("prefill-0").draining());
    fleet.request("t-new", 1, 1, Duration.ofMinutes(10));
    fleet.awaitState("t-new to be refused", WAIT, s -> status(s, "t-new") == TransferStatus.FAILED);
    assertThat(fleet.state().transfer("t-new").orElseThrow()).satisfies(t -> {
      assertThat(t.reason()).isEqualTo(ReasonCodes.PEER_LEFT);
      assertThat(t.detail()).isEqualTo("prefill-0 epoch 1 is shutting down and takes no new transfers");
    });
    assertThat(status(fleet.state(), "t-running")).as("still running while the agent drains")
        .isEqualTo(TransferStatus.DISPATCHED);

    stuck.release();
    Fleet.await(stopping);
    fleet.awaitState("prefill-0 to leave and t-running to complete", WAIT,
        s -> s.peer("prefill-0").orElseThrow().status() == PeerStatus.LEFT
            && status(s, "t-running") == TransferStatus.COMPLETED);
    assertThat(fleet.state().violations()).isEmpty();
    assertThat(fleet.state().counts().lateOutcomes()).isZero();
  }

  private static TransferStatus status(FleetState state, String transferId) {
    return state.transfer(transferId).map(t -> t.status()).orElse(null);
  }

  @Test
  void runsTheOrderOfATransferWhoseCoordinatorDiedAfterDispatchingItAndTheNextDispatchesNothingAgain()
      throws Exception {
    fleet.startAgent("prefill-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    fleet.startAgent("decode-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    fleet.request("t-orphaned", 1, 1, Duration.ofSeconds(60));
    fleet.awaitState("the request and both regions", WAIT, s -> s.transfer("t-orphaned").isPresent()
        && s.region("decode-0", "kv_data-0").isPresent() && s.region("prefill-0", "kv_data-0").isPresent());
    var state = fleet.state();
    var transfer = state.transfer("t-orphaned").orElseThrow();
    var destination = state.region("decode-0", "kv_data-0").orElseThrow();
    var order = new io.kvfleet.control.protocol.TransferOrder(transfer.request(),
        state.region("prefill-0", "kv_data-0").orElseThrow().spec(), destination.spec(), destination.remoteKeys(), "",
        transfer.requestEventId());
    // The dispatch is the order: once it is in the log, the coordinator that wrote it may die.
    fleet.publishAs("coordinator-dead", 1, Decision.Dispatch.of("coordinator-dead", order).event());
    fleet.awaitState("the transfer to complete with no coordinator running", WAIT,
        s -> s.transfer("t-orphaned").map(t -> t.status() == TransferStatus.COMPLETED).orElse(false));
    fleet.startCoordinator();
    Thread.sleep(2_000); // a second dispatch or completion would come within the coordinator's catch-up
    assertThat(fleet.events("t-orphaned", e -> e instanceof TransferDispatched)).hasSize(1);
    assertThat(fleet.events("t-orphaned", e -> e instanceof TransferCompleted)).hasSize(1);
  }

  @Test
  void rejectsARequestForANodeThatNeverJoinsOnceTheGraceRunsOut() throws Exception {
    fleet.startCoordinator();
    fleet.startAgent("prefill-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    fleet.request("t-nobody", 1, 1, Duration.ofSeconds(30));
    fleet.awaitState("the request to be answered", WAIT, s -> s.counts().rejected() == 1);
    assertThat(fleet.events("t-nobody", e -> e instanceof TransferRejected)).singleElement()
        .satisfies(e -> assertThat(((TransferRejected) e).reason()).isEqualTo(ReasonCodes.UNKNOWN_PEER));
  }

  @Test
  void declaresLostANodeThatDiesBeforeItsFirstHeartbeat() throws Exception {
    fleet.startCoordinator();
    fleet.publishAs("decode-0", 1, new PeerJoined("decode-0", 1, "127.0.0.1", "", List.of()));
    fleet.awaitState("the join grace to run out", WAIT, TransferLifecycleIT::decodeIsLost);
    assertThat(fleet.events("decode-0", e -> e instanceof PeerLost)).hasSize(1);
  }

  @Test
  void rejectsATransferThatNamesAnEpochBeforeTheNodeRestarted() throws Exception {
    fleet.startCoordinator();
    fleet.startAgent("prefill-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    String decode = fleet.startAgent("decode-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    fleet.stop(decode);
    fleet.startAgent("decode-0", 2, new InProcessDataPlane(), Duration.ofSeconds(1));
    fleet.awaitState("decode-0 epoch 2 to register", WAIT,
        s -> s.region("decode-0", "kv_data-0").map(r -> r.epoch() == 2).orElse(false));
    fleet.request("t-stale", 1, 1, Duration.ofSeconds(30));
    fleet.awaitState("the request to be answered", WAIT, s -> s.counts().rejected() == 1);
    assertThat(fleet.events("t-stale", e -> e instanceof TransferRejected)).singleElement()
        .satisfies(e -> assertThat(((TransferRejected) e).reason()).isEqualTo(ReasonCodes.STALE_EPOCH));
  }

  @Test
  void aRestartedCoordinatorDispatchesNothingTwiceAndForgetsNothing() throws Exception {
    String first = fleet.startCoordinator();
    fleet.startAgent("prefill-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    fleet.startAgent("decode-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    for (int i = 0; i < 5; i++) {
      fleet.request("t-" + i, 1, 1, Duration.ofSeconds(60));
    }
    fleet.awaitState("the first five to complete", WAIT, s -> s.counts().completed() == 5);
    fleet.stop(first);
    for (int i = 5; i < 10; i++) {
      fleet.request("t-" + i, 1, 1, Duration.ofSeconds(60));
    }
    fleet.startCoordinator();
    fleet.awaitState("all ten to complete", WAIT, s -> s.counts().completed() == 10);
    for (int i = 0; i < 10; i++) {
      assertThat(fleet.events("t-" + i, e -> e instanceof TransferDispatched)).as("t-" + i + " dispatches").hasSize(1);
      assertThat(fleet.events("t-" + i, e -> e instanceof TransferCompleted)).as("t-" + i + " completions").hasSize(1);
    }
    assertThat(fleet.state().violations()).isEmpty();
  }

  @Test
  void declaresNoPeerLostWhileKafkaIsDownForLongerThanTheLeasesAndTheFencedAgentsJoinAgain() throws Exception {
    fleet.startCoordinator();
    fleet.startAgent("prefill-0", 1, new InProcessDataPlane(), Duration.ofMillis(500));
    fleet.startAgent("decode-0", 1, new InProcessDataPlane(), Duration.ofMillis(500));
    fleet.request("t-before", 1, 1, Duration.ofSeconds(30));
    fleet.awaitState("a transfer before the outage to complete", WAIT, s -> s.counts().completed() == 1);

    fleet.kafka.stopServer();
    Thread.sleep(6_000); // four 1.5 s leases: every heartbeat of that time waits in the agents' buffers
    fleet.kafka.restart();
    // Neither agent could prove its lease through the outage: each gave up that epoch and joined again.
    fleet.awaitState("both agents to join again at new epochs", WAIT, s -> Stream.of("prefill-0", "decode-0")
        .allMatch(n -> s.peer(n).map(p -> p.epoch() != 1 && p.status() == PeerStatus.ALIVE).orElse(false)));
    fleet.request("t-after", fleet.agent("prefill-0").epoch(), fleet.agent("decode-0").epoch(), Duration.ofSeconds(30));

    fleet.awaitState("a transfer after the outage to complete", WAIT, s -> s.counts().completed() == 2);
    Thread.sleep(3_000); // two more leases: a loss declared late would land by now
    assertThat(fleet.state().peers()).as("the coordinator could not read the heartbeats; it did not take that"
        + " for silence").allSatisfy(p -> assertThat(p.status()).isNotEqualTo(PeerStatus.LOST));
    assertThat(fleet.log.envelopes()).noneMatch(e -> e.data() instanceof PeerLost);
    assertThat(fleet.log.envelopes()).filteredOn(e -> e.data() instanceof PeerLeft l && l.epoch() == 1)
        .as("the fenced epochs' goodbyes").hasSize(2)
        .allSatisfy(e -> assertThat(((PeerLeft) e.data()).reason()).isEqualTo(ReasonCodes.LEASE_EXPIRED));
  }

  private static boolean decodeIsLost(FleetState state) {
    return state.peer("decode-0").map(p -> p.status() == PeerStatus.LOST).orElse(false);
  }
}
