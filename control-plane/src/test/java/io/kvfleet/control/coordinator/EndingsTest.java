package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.ByteRange;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.TransferTimedOut;
import io.kvfleet.events.state.FleetState;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The transfers the coordinator ends by itself, decided from a folded state and the wall clock. */
class EndingsTest {
  private static final Instant T0 = Instant.parse("2026-12-01T03:00:00Z");
  private static final long LEASE = 30_000;
  private final FleetState state = new FleetState();
  private final Endings endings = new Endings();
  private int sequence;

  EndingsTest() {
    for (String node : List.of("prefill-0", "decode-0")) {
      apply(node, 1, new PeerJoined(node, 1, "h", "", List.of()));
      apply(node, 1, new PeerHeartbeat(node, 1, LEASE));
    }
    apply("router", 1, request("t1", T0.plusSeconds(60)));
    apply("coordinator", 1, new TransferDispatched("t1", "prefill-0", "coordinator"));
  }

  @Test
  void endsNothingWhileBothPeersAreAliveAndTheDeadlineIsAhead() {
    assertThat(due(T0.plusSeconds(1).toEpochMilli(), node -> true)).isEmpty();
  }

  @Test
  void failsATransferWhosePeerLeftOnceTheGraceForItsOwnOutcomeHasPassed() {
    apply("decode-0", 1, new PeerLeft("decode-0", 1, ReasonCodes.SHUTDOWN));
    long noticed = T0.plusSeconds(1).toEpochMilli();
    assertThat(due(noticed, node -> true)).as("its own outcome may still be on its way").isEmpty();
    assertThat(due(noticed + Endings.GONE_GRACE_MILLIS - 1, node -> true)).isEmpty();
    assertThat(due(noticed + Endings.GONE_GRACE_MILLIS, node -> true))
        .singleElement().isInstanceOfSatisfying(TransferFailed.class, f -> {
          assertThat(f.reason()).isEqualTo(ReasonCodes.PEER_LEFT);
          assertThat(f.detail()).isEqualTo("decode-0 epoch 1 left while it was in flight");
          assertThat(f.sourceNode()).isEqualTo("prefill-0");
        });
    assertThat(due(noticed + 10 * Endings.GONE_GRACE_MILLIS, node -> true))
        .as("decided once").isEmpty();
  }

  @Test
  void failsATransferWhosePeerAnotherCoordinatorDeclaredLostOrThatRestarted() {
    apply("coordinator-b", 1, new PeerLost("prefill-0", 1, ReasonCodes.LEASE_EXPIRED, 0));
    apply("router", 1, request("t2", T0.plusSeconds(60)));
    apply("coordinator", 1, new TransferDispatched("t2", "prefill-0", "coordinator"));
    long now = T0.plusSeconds(1).toEpochMilli();
    due(now, node -> true);
    var failed = due(now + Endings.GONE_GRACE_MILLIS, node -> true);
    assertThat(failed).extracting(e -> ((TransferFailed) e).detail())
        .containsExactly("prefill-0 epoch 1 was declared lost", "prefill-0 epoch 1 was declared lost");

    var restarted = new EndingsTest();
    restarted.apply("decode-0", 2, new PeerJoined("decode-0", 2, "h", "", List.of()));
    restarted.due(now, node -> true);
    assertThat(restarted.due(now + Endings.GONE_GRACE_MILLIS, node -> true))
        .singleElement().isInstanceOfSatisfying(TransferFailed.class, f -> {
          assertThat(f.reason()).isEqualTo(ReasonCodes.PEER_LOST);
          assertThat(f.detail()).isEqualTo("decode-0 epoch 1 was replaced by epoch 2");
        });
  }

  @Test
  void forgetsAGonePeersTransferThatReportedItsOwnOutcomeWithinTheGrace() {
    apply("decode-0", 1, new PeerLeft("decode-0", 1, ReasonCodes.SHUTDOWN));
    long now = T0.plusSeconds(1).toEpochMilli();
    due(now, node -> true);
    assertThat(endings.remembered()).as("t1 seen with a gone peer").isEqualTo(1);
    apply("prefill-0", 1, new TransferCompleted("t1", "prefill-0", 4096, 1, "ucx", ""));
    endings.ended("t1");
    assertThat(due(now + Endings.GONE_GRACE_MILLIS, node -> true)).isEmpty();
    assertThat(endings.remembered()).as("nothing kept once the fold read its end").isZero();
  }

  @Test
  void declaresAPeerLostWhenItsLeaseRunsOutAndFailsItsTransfersAtOnce() {
    apply("decode-0", 1, new PeerHeartbeat("decode-0", 1, 1)); // only decode-0's lease runs out
    long afterLease = T0.plusSeconds(1).toEpochMilli();
    List<FleetEvent> due = due(afterLease, node -> true);
    assertThat(due).hasSize(2);
    assertThat(due.get(0)).isInstanceOfSatisfying(PeerLost.class,
        l -> assertThat(l.nodeId()).isEqualTo("decode-0"));
    assertThat(due.get(1)).isInstanceOfSatisfying(TransferFailed.class,
        f -> assertThat(f.detail()).isEqualTo("decode-0 epoch 1 missed its lease"));
    assertThat(due(afterLease + 1, node -> true)).isEmpty();
  }

  @Test
  void aLeaseTooLongForEpochMillisNeverRunsOutAndStopsNoOtherEnding() {
    apply("decode-0", 1, new PeerHeartbeat("decode-0", 1, Long.MAX_VALUE));
    apply("router", 1, request("t-short", T0.plusMillis(500)));

    assertThat(due(T0.plusMillis(LEASE - 1).toEpochMilli(), node -> true))
        .extracting(e -> e.getClass().getSimpleName() + " " + e.subject())
        .containsExactly("TransferTimedOut t-short");
    assertThat(due(T0.plusMillis(LEASE + 1).toEpochMilli(), node -> true))
        .as("prefill-0's lease runs out, decode-0's never")
        .extracting(e -> e.getClass().getSimpleName() + " " + e.subject())
        .containsExactly("PeerLost prefill-0", "TransferFailed t1");
  }

  @Test
  void givesAgainAtTheNextCheckWhatKafkaDidNotTake() {
    apply("router", 1, request("t-short", T0.plusMillis(500)));
    long afterLease = T0.plusMillis(LEASE + 1).toEpochMilli();
    List<FleetEvent> first = due(afterLease, node -> true);
    assertThat(first).hasSize(4); // both peers lost, t1 and t-short failed

    var refused = first.stream().filter(e -> !(e instanceof PeerLost l && l.nodeId().equals("decode-0"))).toList();
    refused.forEach(endings::unpublished);
    apply("prefill-0", 1, new TransferCompleted("t1", "prefill-0", 4096, 1_000, "ucx/tcp", "")); // its own end came

    var again = due(afterLease + 200, node -> true);

    assertThat(again).as("as they were, but for the transfer whose end the fold read meanwhile")
        .containsExactlyInAnyOrderElementsOf(refused.stream()
            .filter(e -> !(e instanceof TransferFailed f && f.transferId().equals("t1"))).toList());
    assertThat(due(afterLease + 400, node -> true)).as("once").isEmpty();
  }

  @Test
  void givesNothingAgainForANodeThatWentToAnotherCoordinator() {
    long afterLease = T0.plusMillis(LEASE + 1).toEpochMilli();
    due(afterLease, node -> true).forEach(endings::unpublished);

    assertThat(due(afterLease + 200, node -> false)).as("both nodes are another coordinator's now").isEmpty();
  }

  @Test
  void leavesATransferWhoseSourceAnotherCoordinatorOwnsToThatCoordinator() {
    long afterLease = T0.plusMillis(LEASE + 1).toEpochMilli();
    List<FleetEvent> due = due(afterLease, node -> node.equals("decode-0"));
    assertThat(due).as("decode-0 is declared lost, t1 (from prefill-0) is not ended here")
        .singleElement().isInstanceOf(PeerLost.class);
  }

  @Test
  void timesOutATransferPastItsDeadlineOnlyWhereItOwnsTheSourceNode() {
    apply("router", 1, request("t-short", T0.plusMillis(500)));
    long late = T0.plusSeconds(1).toEpochMilli();
    assertThat(due(late, node -> node.equals("decode-0"))).isEmpty();
    assertThat(due(late, node -> true)).singleElement()
        .isInstanceOfSatisfying(TransferTimedOut.class, t -> assertThat(t.transferId()).isEqualTo("t-short"));
  }

  @Test
  void timesOutOnlyOnceItHasReadItsTransferPartitionsPastTheDeadline() {
    apply("router", 1, request("t-short", T0.plusMillis(500)));
    long late = T0.plusSeconds(1).toEpochMilli();
    var watched = NodesView.watched(T0.toEpochMilli(), late);

    assertThat(endings.due(state, late, watched, T0.plusMillis(400).toEpochMilli(), node -> true))
        .as("an outcome that reached Kafka before the deadline may still be unread").isEmpty();
    assertThat(endings.due(state, late, watched, T0.plusMillis(600).toEpochMilli(), node -> true))
        .singleElement().isInstanceOf(TransferTimedOut.class);
  }

  @Test
  void judgesALeaseOnlyWithinWhatItHasWatchedOfTheNodeEvents() {
    long afterLease = T0.plusMillis(LEASE + 1).toEpochMilli();
    long leaseEnd = T0.plusMillis(LEASE).toEpochMilli();
    long start = T0.toEpochMilli();

    assertThat(endings.due(state, afterLease, NodesView.watched(start, leaseEnd), node -> true))
        .as("cut off from Kafka since the leases' last moment: their heartbeats may be unread").isEmpty();
    assertThat(endings.due(state, afterLease, new NodesView(), node -> true)).as("nothing read yet").isEmpty();
    assertThat(endings.due(state, afterLease, NodesView.watched(afterLease - 1_000, afterLease), node -> true))
        .as("watching again for a second only: a heartbeat may still be on its way").isEmpty();
    assertThat(endings.due(state, afterLease, NodesView.watched(start, afterLease), node -> true))
        .extracting(e -> e.getClass().getSimpleName() + " " + e.subject())
        .containsExactlyInAnyOrder("PeerLost prefill-0", "PeerLost decode-0", "TransferFailed t1");
  }

  /** What a coordinator that has watched every node event since T0 ends at {@code now}. */
  private List<FleetEvent> due(long now, java.util.function.Predicate<String> owns) {
    return endings.due(state, now, NodesView.watched(T0.toEpochMilli(), now), owns);
  }

  private static TransferRequested request(String id, Instant deadline) {
    return new TransferRequested(id, "prefill-0", 1, "kv", "decode-0", 1, "kv", TransferOp.WRITE,
        List.of(new ByteRange(0, 0, 4096)), deadline.toEpochMilli(), false);
  }

  private void apply(String producer, long epoch, FleetEvent event) {
    sequence++;
    state.apply(new Envelope("e" + sequence, producer, epoch, sequence, T0, "", event));
  }
}
