package io.kvfleet.events.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.Samples;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.TransferTimedOut;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TransferFoldTest {
  private static final TransferRequested REQUEST = Samples.request("t1", "p0", 1, "d0", 1);

  @Test
  void aRequestedTransferIsInFlightAndTouchesBothNodes() {
    FleetState state = new Log().append(REQUEST).fold();

    assertThat(state.transfer("t1").orElseThrow().status()).isEqualTo(TransferStatus.REQUESTED);
    assertThat(state.inFlightTransfers()).extracting(TransferView::transferId).containsExactly("t1");
    assertThat(state.inFlightTouching("p0")).hasSize(1);
    assertThat(state.inFlightTouching("d0")).hasSize(1);
    assertThat(state.inFlightTouching("x9")).isEmpty();
  }

  @Test
  void aCompletedTransferKeepsItsBytesAndPath() {
    FleetState state = new Log().append(REQUEST, dispatched(), completed(65_536)).fold();

    TransferView transfer = state.transfer("t1").orElseThrow();
    assertThat(transfer.status()).isEqualTo(TransferStatus.COMPLETED);
    assertThat(transfer.bytes()).isEqualTo(65_536);
    assertThat(transfer.detail()).isEqualTo("ucx/tcp");
    assertThat(transfer.updatedAt()).isEqualTo(Samples.T0.plusSeconds(2));
    assertThat(state.inFlightTransfers()).isEmpty();
    assertThat(state.violations()).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(value = TransferStatus.class, names = {"COMPLETED", "FAILED", "REJECTED", "TIMED_OUT"})
  void eachTerminalEventEndsATransfer(TransferStatus end) {
    FleetState state = new Log().append(REQUEST, terminal(end)).fold();

    assertThat(state.transfer("t1").orElseThrow().status()).isEqualTo(end);
    assertThat(state.inFlightTouching("p0")).isEmpty();
    assertThat(state.violations()).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(value = TransferStatus.class, names = "REQUESTED", mode = EnumSource.Mode.EXCLUDE)
  void recordsAnEventOfATransferBeforeItWasRequested(TransferStatus status) {
    FleetEvent event = status == TransferStatus.DISPATCHED ? dispatched() : terminal(status);

    FleetState state = new Log().append(event).fold();

    assertThat(state.transfer("t1")).isEmpty();
    assertThat(state.violations()).singleElement().extracting(Violation::message).asString()
        .startsWith("transfer t1 ").endsWith(" before it was requested");
  }

  @Test
  void keepsTheFirstEndOfATransferEndedTwice() {
    FleetState state =
        new Log().append(REQUEST, dispatched(), completed(65_536), terminal(TransferStatus.FAILED)).fold();

    assertThat(state.transfer("t1").orElseThrow().status()).isEqualTo(TransferStatus.COMPLETED);
    assertThat(state.violations())
        .extracting(Violation::message)
        .containsExactly("transfer t1 ended again as FAILED after COMPLETED; the first end is kept");
  }

  @Test
  void countsTheSourcesOutcomeAfterACoordinatorsTimeOutAsALateOutcomeNotAViolation() {
    FleetState state = new Log().append(REQUEST).append("coordinator-0", 1, dispatched())
        .append("coordinator-0", 1, terminal(TransferStatus.TIMED_OUT)).append("p0", 1, completed(65_536)).fold();

    TransferView transfer = state.transfer("t1").orElseThrow();
    assertThat(transfer.status()).as("the first end is kept").isEqualTo(TransferStatus.TIMED_OUT);
    assertThat(transfer.endedBy()).isEqualTo("coordinator-0");
    assertThat(state.counts().lateOutcomes()).isEqualTo(1);
    assertThat(state.violations()).isEmpty();
  }

  @Test
  void countsACoordinatorsPeerVerdictAfterTheSourcesOwnFailureAsALateOutcome() {
    FleetState state = new Log().append(REQUEST).append("coordinator-0", 1, dispatched())
        .append("p0", 1, new TransferFailed("t1", "p0", ReasonCodes.TRANSPORT_ERROR, -25, "UCS_ERR_ENDPOINT_TIMEOUT"))
        .append("coordinator-0", 1, terminal(TransferStatus.FAILED)).fold();

    assertThat(state.transfer("t1").orElseThrow().reason()).isEqualTo(ReasonCodes.TRANSPORT_ERROR);
    assertThat(state.lateOutcomeCount()).isEqualTo(1);
    assertThat(state.violations()).isEmpty();
  }

  @Test
  void stillRecordsTwoEndsFromTheSourceOrAnOutcomeAfterARejectionAsViolations() {
    FleetState twice = new Log().append(REQUEST).append("coordinator-0", 1, dispatched())
        .append("p0", 1, completed(65_536)).append("p0", 1, terminal(TransferStatus.FAILED)).fold();
    FleetState afterRejection = new Log().append(REQUEST).append("coordinator-0", 1, terminal(TransferStatus.REJECTED))
        .append("p0", 1, completed(65_536)).fold();

    assertThat(twice.violations()).extracting(Violation::message)
        .containsExactly("transfer t1 ended again as FAILED after COMPLETED; the first end is kept");
    assertThat(afterRejection.violations()).extracting(Violation::message)
        .containsExactly("transfer t1 ended again as COMPLETED after REJECTED; the first end is kept");
    assertThat(twice.lateOutcomeCount() + afterRejection.lateOutcomeCount()).isZero();
  }

  @ParameterizedTest
  @EnumSource(value = TransferStatus.class, names = {"COMPLETED", "FAILED"})
  void doesNotEndATransferOnItsSourcesWordBeforeItWasDispatched(TransferStatus end) {
    FleetState state = new Log().append(REQUEST).append("p0", 1, terminal(end))
        .append("coordinator-0", 1, terminal(TransferStatus.REJECTED)).fold();

    assertThat(state.transfer("t1").orElseThrow().status()).as("the coordinator's rejection is its one ending")
        .isEqualTo(TransferStatus.REJECTED);
    assertThat(state.violations()).extracting(Violation::message).containsExactly("transfer t1 "
        + end.name().toLowerCase(java.util.Locale.ROOT) + " by its source node before it was dispatched; not ended");
  }

  @Test
  void keepsTheFirstOfTwoRequestsWithOneId() {
    FleetState state = new Log().append(REQUEST, Samples.request("t1", "other", 1, "d0", 1)).fold();

    assertThat(state.transfer("t1").orElseThrow().request()).isEqualTo(REQUEST);
    assertThat(state.violations()).hasSize(1);
  }

  @Test
  void recordsADispatchAfterTheEndAndASecondDispatch() {
    FleetState state =
        new Log().append(REQUEST, dispatched(), dispatched(), terminal(TransferStatus.TIMED_OUT), dispatched()).fold();

    assertThat(state.transfer("t1").orElseThrow().status()).isEqualTo(TransferStatus.TIMED_OUT);
    assertThat(state.transfer("t1").orElseThrow().reason()).isEqualTo(ReasonCodes.DEADLINE_PASSED);
    assertThat(state.violations())
        .extracting(Violation::message)
        .containsExactly("transfer t1 dispatched twice", "transfer t1 dispatched after it ended as TIMED_OUT");
  }

  @Test
  void recordsARejectionAfterDispatchButEndsTheTransfer() {
    FleetState state = new Log().append(REQUEST, dispatched(), terminal(TransferStatus.REJECTED)).fold();

    assertThat(state.transfer("t1").orElseThrow().status()).isEqualTo(TransferStatus.REJECTED);
    assertThat(state.violations())
        .extracting(Violation::message)
        .containsExactly("transfer t1 rejected after it was dispatched");
  }

  @Test
  void recordsACompletionWithOtherThanTheRequestedBytes() {
    FleetState state = new Log().append(REQUEST, dispatched(), completed(10)).fold();

    assertThat(state.transfer("t1").orElseThrow().bytes()).isEqualTo(10);
    assertThat(state.violations())
        .extracting(Violation::message)
        .containsExactly("transfer t1 completed with 10 bytes but requested 65536");
  }

  @Test
  void keepsTheReasonAndDetailOfAFailure() {
    FleetState state = new Log().append(REQUEST, dispatched(), terminal(TransferStatus.FAILED)).fold();

    TransferView transfer = state.transfer("t1").orElseThrow();
    assertThat(transfer.reason()).isEqualTo(ReasonCodes.PEER_LOST);
    assertThat(transfer.detail()).isEqualTo("d0 lost");
  }

  private static TransferDispatched dispatched() {
    return new TransferDispatched("t1", "p0", "coordinator-0");
  }

  private static TransferCompleted completed(long bytes) {
    return new TransferCompleted("t1", "p0", bytes, 1_000, "ucx/tcp", "");
  }

  private static FleetEvent terminal(TransferStatus status) {
    return switch (status) {
      case COMPLETED -> completed(65_536);
      case FAILED -> new TransferFailed("t1", "p0", ReasonCodes.PEER_LOST, 0, "d0 lost");
      case REJECTED -> new TransferRejected("t1", "p0", ReasonCodes.UNKNOWN_REGION, "kv-0 of d0");
      case TIMED_OUT -> new TransferTimedOut("t1", "p0", 0);
      case REQUESTED, DISPATCHED -> throw new IllegalArgumentException(status + " is not terminal");
    };
  }
}
