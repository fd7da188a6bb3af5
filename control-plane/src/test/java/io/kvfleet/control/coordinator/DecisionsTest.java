package io.kvfleet.control.coordinator;

import static io.kvfleet.control.coordinator.TransferDeciderTest.joined;
import static io.kvfleet.control.coordinator.TransferDeciderTest.range;
import static io.kvfleet.control.coordinator.TransferDeciderTest.registered;
import static io.kvfleet.control.coordinator.TransferDeciderTest.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.state.FleetState;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Each request is decided once while its answer is on its way, and again when Kafka refused the answer. */
class DecisionsTest {
  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
  private static final long PAGE = 4096;
  private final Decisions decisions = new Decisions(new TransferDecider("coordinator-t"));
  private final FleetState state = new FleetState();
  private final TransferRequested request = request("t1", 3, 4, range(0, PAGE, PAGE));
  private long sequence;

  DecisionsTest() {
    given(joined("prefill-0", 3, "ucx"), joined("decode-0", 4, "ucx"),
        new PeerHeartbeat("prefill-0", 3, 60_000), new PeerHeartbeat("decode-0", 4, 60_000),
        registered("prefill-0", 3, "kv", PAGE, "ucx"), registered("decode-0", 4, "kv", PAGE, "ucx"), request);
  }

  @Test
  void decidesARequestOnceUntilTheFoldReadsItsAnswer() {
    assertThat(decisions.decide(state, request, NOW)).containsInstanceOf(Decision.Dispatch.class);
    assertThat(decisions.decide(state, request, NOW)).as("its answer is on its way").isEmpty();

    decisions.settled("t1");

    assertThat(decisions.isDecided("t1")).isFalse();
  }

  @Test
  void decidesAgainARequestWhoseAnswerKafkaRefused() {
    decisions.decide(state, request, NOW);
    decisions.refused("t1");

    assertThat(decisions.due(state, node -> true, NOW)).singleElement().isInstanceOf(Decision.Dispatch.class);
    assertThat(decisions.due(state, node -> true, NOW)).as("once").isEmpty();
    assertThat(decisions.isDecided("t1")).isTrue();
  }

  @Test
  void decidesNothingAgainThatTheFoldAnsweredMeanwhileOrThatAnotherCoordinatorOwns() {
    decisions.decide(state, request, NOW);
    decisions.refused("t1");
    assertThat(decisions.due(state, node -> false, NOW)).as("prefill-0's partition went elsewhere").isEmpty();

    decisions.refused("t1");
    given(new TransferDispatched("t1", "prefill-0", "coordinator-u"));
    assertThat(decisions.due(state, node -> true, NOW)).as("answered by the time of the check").isEmpty();
  }

  @Test
  void aDuplicateOfAnEndedTransferDoesNotKeepItsIdDecided() {
    given(new TransferDispatched("t1", "prefill-0", "coordinator-t"),
        new TransferCompleted("t1", "prefill-0", PAGE, 1_000, "ucx/tcp", ""));

    assertThat(decisions.decide(state, request, NOW)).containsInstanceOf(Decision.AlreadyAnswered.class);
    assertThat(decisions.isDecided("t1")).as("no answer will come to settle it").isFalse();
  }

  @Test
  void aDifferentRequestUnderAUsedIdIsRejectedAsADuplicateWithoutEndingTheFirst() {
    assertThat(decisions.decide(state, request, NOW)).containsInstanceOf(Decision.Dispatch.class);
    var other = request("t1", 3, 4, range(PAGE, PAGE, PAGE));
    given(other);

    assertThat(decisions.decide(state, other, NOW)).get().isInstanceOfSatisfying(Decision.Reject.class,
        r -> assertThat(r.event().reason()).isEqualTo(ReasonCodes.DUPLICATE_TRANSFER));
    assertThat(decisions.isDecided("t1")).as("the first's dispatch is still on its way").isTrue();
    given(new TransferDispatched("t1", "prefill-0", "coordinator-t"),
        new io.kvfleet.events.TransferRejected("t1", "prefill-0", ReasonCodes.DUPLICATE_TRANSFER, "dup"));
    assertThat(state.transfer("t1").orElseThrow().status()).as("the duplicate's rejection ends nothing")
        .isEqualTo(io.kvfleet.events.state.TransferStatus.DISPATCHED);
  }

  @Test
  void aRequestWhoseDeadlinePassedIsRejectedOrTimedOutNeverBoth() {
    var answers = new Answers();
    var shared = new Decisions(new TransferDecider("coordinator-t"), answers);
    var endings = new Endings(answers);
    var late = request("t-late", 3, 4, range(0, PAGE, PAGE));
    var passed = NOW.plusSeconds(11); // past its deadline (NOW + 10 s)
    given(late);

    assertThat(shared.decide(state, late, passed)).get().isInstanceOfSatisfying(Decision.Reject.class,
        r -> assertThat(r.event().reason()).isEqualTo(ReasonCodes.DEADLINE_PASSED));
    assertThat(endings.due(state, passed.toEpochMilli(), NodesView.watched(0, passed.toEpochMilli()), n -> true))
        .as("its rejection is on its way: no time-out").noneMatch(e -> e.subject().equals("t-late"));
  }

  @Test
  void answersAWaitingRequestWithItsReasonOnceTheGraceRunsOut() {
    var unknown = request("t2", 3, 9, range(0, 0, PAGE));
    assertThat(decisions.decide(state, unknown, NOW)).as("decode-0 epoch 9 may be about to join").isEmpty();

    assertThat(decisions.waitingDue(state, NOW.plus(WaitingRequests.GRACE).plusMillis(1))).singleElement()
        .isInstanceOfSatisfying(Decision.Reject.class,
            r -> assertThat(r.event().reason()).isEqualTo(ReasonCodes.UNKNOWN_PEER));
  }

  private void given(FleetEvent... events) {
    for (FleetEvent e : events) {
      sequence++;
      state.apply(new Envelope("e" + sequence, "test", 1, sequence, NOW.minusSeconds(5), "", e));
    }
  }
}
