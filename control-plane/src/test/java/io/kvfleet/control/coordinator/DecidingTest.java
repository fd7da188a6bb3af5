package io.kvfleet.control.coordinator;

import static io.kvfleet.control.coordinator.TransferDeciderTest.range;
import static io.kvfleet.control.coordinator.TransferDeciderTest.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.state.FleetState;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the coordinator answers for requests it reads: misrouted, unreadable, past their deadline. */
class DecidingTest {
  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
  private static final int PARTITIONS = 3;
  private final Deciding deciding = new Deciding("coordinator-t");
  private final FleetState state = new FleetState();
  private final Ownership whole = Ownership.whole(PARTITIONS);
  private long sequence;

  @Test
  void rejectsARequestInAnotherPartitionThanItsKeyPicksIntoThePartitionItIsIn() {
    var request = request("t1", 1, 1, range(0, 0, 4096));
    int wrong = (Ownership.partitionOf("prefill-0", PARTITIONS) + 1) % PARTITIONS;

    var decisions = read(request, wrong, whole);

    assertThat(decisions).singleElement().isInstanceOfSatisfying(Decision.Reject.class, r -> {
      assertThat(r.event().reason()).isEqualTo(ReasonCodes.MISROUTED);
      assertThat(r.partition()).isEqualTo(wrong);
    });
    assertThat(deciding.endingsDue(state, NOW.plusSeconds(60).toEpochMilli(), NodesView.watched(0, Long.MAX_VALUE / 2),
        n -> true)).as("ended once: no time-out follows").isEmpty();
  }

  @Test
  void aMisroutedRequestReusingALiveIdIsAnsweredAsADuplicateAndEndsNothing() {
    var first = request("t1", 1, 1, range(0, 0, 4096));
    given(first);
    int wrong = (Ownership.partitionOf("prefill-0", PARTITIONS) + 1) % PARTITIONS;

    var decisions = read(request("t1", 1, 1, range(0, 4096, 4096)), wrong, whole);

    // Its source reads only its own partition: a rejection here that ended t1 would leave it sending.
    assertThat(decisions).singleElement().isInstanceOfSatisfying(Decision.Reject.class, r -> {
      assertThat(r.event().reason()).isEqualTo(ReasonCodes.DUPLICATE_TRANSFER);
      assertThat(r.event().detail()).contains("misrouted");
      given(r.event());
    });
    assertThat(state.transfer("t1").orElseThrow().status()).isEqualTo(io.kvfleet.events.state.TransferStatus.REQUESTED);
  }

  @Test
  void leavesAMisroutedRequestToTheOwnerOfThePartitionItIsIn() {
    var group = Ownership.group(PARTITIONS); // owns nothing yet
    int wrong = (Ownership.partitionOf("prefill-0", PARTITIONS) + 1) % PARTITIONS;
    assertThat(read(request("t1", 1, 1, range(0, 0, 4096)), wrong, group)).isEmpty();
  }

  @Test
  void answersAnUnreadableRequestOnceItDecidesAndNotAgainOnceItsRejectionIsRead() {
    var rejection = new TransferRejected("t-future", "prefill-0", ReasonCodes.SCHEMA_UNSUPPORTED, "version 9");
    assertThat(deciding.unreadable(state, rejection, 0, false, whole)).as("still catching up").isEmpty();

    assertThat(deciding.unreadableDue(state, whole)).singleElement()
        .isInstanceOfSatisfying(Decision.Reject.class, r -> assertThat(r.event()).isEqualTo(rejection));
    assertThat(deciding.unreadableDue(state, whole)).as("once").isEmpty();

    var restarted = new Deciding("coordinator-t");
    restarted.unreadable(state, rejection, 0, false, whole);
    given(rejection);
    restarted.read(state, rejection, 0, false, whole, NOW);
    assertThat(restarted.unreadableDue(state, whole)).as("a restart read its answer in catch-up").isEmpty();
  }

  @Test
  void aDuplicatesRejectionReadBackLeavesTheFirstTransfersEndingClaimed() {
    var first = request("t1", 1, 1, range(0, 0, 4096));
    given(first);
    var passed = NOW.plusSeconds(11); // past the deadline (NOW + 10 s)
    assertThat(deciding.endingsDue(state, passed.toEpochMilli(), NodesView.watched(0, passed.toEpochMilli()), n -> true))
        .singleElement().extracting(FleetEvent::wireType).isEqualTo("io.kvfleet.transfer.timed_out");

    var duplicate = new TransferRejected("t1", "prefill-0", ReasonCodes.DUPLICATE_TRANSFER, "other pages");
    given(duplicate);
    deciding.read(state, duplicate, 0, true, whole, passed);

    assertThat(deciding.ended(state, "t1")).as("its time-out is still on its way").isTrue();
    assertThat(deciding.endingsDue(state, passed.toEpochMilli() + 200, NodesView.watched(0, passed.toEpochMilli()),
        n -> true)).isEmpty();
  }

  /** A dispatch Kafka refused as too large is answered by one rejection, ORDER_TOO_LARGE, and only one. */
  @Test
  void aDispatchTooLargeForARecordIsRejectedOnce() {
    var request = request("t1", 1, 1, range(0, 0, 4096));
    given(request);
    var region = new io.kvfleet.events.RegionSpec("kv_data-0", io.kvfleet.events.RegionKind.KV,
        io.kvfleet.events.MemoryType.DRAM, -1, 0x1000, 1 << 20, 4096, "kv_data", 0);
    var dispatch = Decision.Dispatch.of("coordinator-t",
        new io.kvfleet.control.protocol.TransferOrder(request, region, region, java.util.Map.of(), "", "e1"));
    var tooLarge = io.kvfleet.control.KvfleetException.eventTooLarge("coordinator-t", "transfer.dispatched for t1",
        2_000_000, 1_047_552);

    var first = deciding.orderTooLarge(state, dispatch, tooLarge);
    var again = deciding.orderTooLarge(state, dispatch, tooLarge);

    assertThat(first).get().isInstanceOfSatisfying(Decision.Reject.class, r -> {
      assertThat(r.event().reason()).isEqualTo(ReasonCodes.ORDER_TOO_LARGE);
      assertThat(r.event().detail()).contains("1 byte ranges", "2000000 bytes, over the 1047552");
    });
    assertThat(again).as("its ending is claimed already").isEmpty();
    assertThat(deciding.unpublished(dispatch.event(), tooLarge, 0)).as("nothing to publish instead").isEmpty();
  }

  /** An ending whose detail makes it too large is answered again with the detail cut: the transfer still ends. */
  @Test
  void anEndingTooLargeForARecordIsPublishedAgainWithItsDetailCut() {
    var wordy = new TransferRejected("t1", "prefill-0", ReasonCodes.COMPONENT_ONE_SIDED, "x".repeat(2_000_000));
    var terse = new TransferRejected("t2", "prefill-0", ReasonCodes.COMPONENT_ONE_SIDED, "short");
    var tooLarge = io.kvfleet.control.KvfleetException.eventTooLarge("coordinator-t", "a rejection", 2_000_100,
        1_047_552);

    assertThat(deciding.unpublished(wordy, tooLarge, 0)).get().isInstanceOfSatisfying(TransferRejected.class, r -> {
      assertThat(r.transferId()).isEqualTo("t1");
      assertThat(r.reason()).isEqualTo(ReasonCodes.COMPONENT_ONE_SIDED);
      assertThat(r.detail()).hasSizeLessThan(Deciding.KEPT_DETAIL + 100).endsWith("(cut from 2000000 characters:"
          + " the whole would not fit a Kafka record)");
    });
    assertThat(deciding.unpublished(terse, tooLarge, 0)).isEmpty();
  }

  private List<Decision.Action> read(TransferRequested request, int partition, Ownership ownership) {
    given(request);
    return deciding.read(state, request, partition, true, ownership, NOW);
  }

  private void given(FleetEvent event) {
    sequence++;
    state.apply(new Envelope("e" + sequence, "test", 1, sequence, NOW.minusSeconds(5), "", event));
  }
}
