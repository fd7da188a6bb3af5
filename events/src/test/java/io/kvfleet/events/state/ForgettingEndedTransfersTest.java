package io.kvfleet.events.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.OpaqueEvent;
import io.kvfleet.events.Samples;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.snapshot.StateHash;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A long-running fold forgets a transfer a window of log time after it ended (the log's events are a second apart). */
class ForgettingEndedTransfersTest {
  private static final Duration WINDOW = Duration.ofSeconds(5);

  private static Log completedTransfer(String id) {
    return new Log().append(Samples.request(id, "p0", 1, "d0", 1), new TransferDispatched(id, "p0", "c0"),
        new TransferCompleted(id, "p0", Samples.request(id, "p0", 1, "d0", 1).totalBytes(), 1_000, "ucx/tcp", ""));
  }

  /**
   * Appends {@code n} coordinator decisions that change nothing but the time (rejections at a
   * schema version this build cannot read): n seconds of log time.
   */
  private static Log after(Log log, int n) {
    for (int i = 0; i < n; i++) {
      log.append("c0", 1, new OpaqueEvent("", "", "io.kvfleet.transfer.rejected", 99, "{}"));
    }
    return log;
  }

  /** Appends {@code n} events of a node, a second apart. */
  private static Log nodeEvents(Log log, int n) {
    for (int i = 0; i < n; i++) {
      log.append("p0", 1, new OpaqueEvent("p0", "", "io.kvfleet.peer.migrated", 1, "{}"));
    }
    return log;
  }

  private static FleetState fold(Duration window, List<Envelope> log) {
    var state = FleetState.keepingEnded(window);
    log.forEach(state::apply);
    return state;
  }

  @Test
  void keepsAnEndedTransferForTheWindowAndForgetsItOnceTheLogHasMovedPastIt() {
    var log = completedTransfer("t1"); // ended at T0+2s

    assertThat(fold(WINDOW, after(log, 5).envelopes()).transfer("t1")).isPresent(); // last event at T0+7s
    FleetState later = fold(WINDOW, after(log, 1).envelopes()); // and one more at T0+8s

    assertThat(later.transfer("t1")).isEmpty();
    assertThat(later.counts().transfers()).isZero();
    assertThat(later.counts().forgottenTransfers()).isEqualTo(1);
    assertThat(later.violations()).isEmpty();
  }

  @Test
  void onlyACoordinatorsDecisionsMoveTheClockItForgetsBy() {
    var log = nodeEvents(completedTransfer("t1"), 100);

    assertThat(fold(WINDOW, log.envelopes()).transfer("t1")).as("after 100 s of a node's events alone").isPresent();
    assertThat(fold(WINDOW, after(log, 1).envelopes()).transfer("t1")).as("after a coordinator's decision").isEmpty();
  }

  @Test
  void aNodesFarFutureTimeDoesNotMakeTheFoldForgetWhatEndedAMomentAgo() {
    var log = completedTransfer("t1");
    var last = log.last();
    var future = new Envelope("e-future", "p0", 1, 99, last.time().plus(Duration.ofDays(365)), "",
        new OpaqueEvent("p0", "", "io.kvfleet.peer.migrated", 1, "{}"));
    var envelopes = new java.util.ArrayList<>(log.envelopes());
    envelopes.add(future);

    assertThat(fold(WINDOW, envelopes).transfer("t1")).as("after a node's event dated a year ahead").isPresent();
  }

  @Test
  void anEndingDatedBeforeItsTransferIsKeptFromTheTransfersLastChange() {
    var log = new Log().append(Samples.request("t1", "p0", 1, "d0", 1), new TransferDispatched("t1", "p0", "c0"));
    var dispatched = log.last();
    var envelopes = new java.util.ArrayList<>(log.envelopes());
    envelopes.add(new Envelope("e-past", "p0", 1, 1, java.time.Instant.EPOCH, "",
        new TransferCompleted("t1", "p0", Samples.request("t1", "p0", 1, "d0", 1).totalBytes(), 1_000, "ucx/tcp", "")));
    envelopes.addAll(after(new Log(), 3).envelopes().stream()
        .map(e -> new Envelope(e.id(), e.producer(), e.epoch(), e.sequence(), dispatched.time().plusSeconds(1), "", e.data()))
        .toList());

    FleetState state = fold(WINDOW, envelopes);

    assertThat(state.transfer("t1").orElseThrow().updatedAt()).isEqualTo(dispatched.time());
    assertThat(state.transfer("t1").orElseThrow().status()).isEqualTo(TransferStatus.COMPLETED);
  }

  /**
   * Two transfers dispatched at T0 that end out of order: t1 at T0+100s, then t2 (its node's clock
   * behind) at T0+50s; coordinator decisions follow at the given seconds after T0.
   */
  private static List<Envelope> endingOutOfOrder(int... decisionsAt) {
    var t0 = java.time.Instant.parse("2026-06-01T00:00:00Z");
    var log = new java.util.ArrayList<Envelope>();
    java.util.function.BiConsumer<Long, io.kvfleet.events.FleetEvent> append = (seconds, event) -> log.add(
        new Envelope("e" + log.size(), "c0", 1, log.size() + 1, t0.plusSeconds(seconds), "", event));
    for (String id : List.of("t1", "t2")) {
      append.accept(0L, Samples.request(id, "p0", 1, "d0", 1));
      append.accept(0L, new TransferDispatched(id, "p0", "c0"));
    }
    for (String id : List.of("t1", "t2")) {
      append.accept(id.equals("t1") ? 100L : 50L,
          new TransferCompleted(id, "p0", Samples.request(id, "p0", 1, "d0", 1).totalBytes(), 1_000, "ucx/tcp", ""));
    }
    for (int at : decisionsAt) {
      append.accept((long) at, new OpaqueEvent("", "", "io.kvfleet.transfer.rejected", 99, "{}"));
    }
    return log;
  }

  @Test
  void forgetsATransferThatEndedEarlierThanOneThatEndedBeforeItInTheLog() {
    FleetState state = fold(WINDOW, endingOutOfOrder(56)); // the window (5 s) reaches back to T0+51s

    assertThat(state.transfer("t2")).as("ended at T0+50s").isEmpty();
    assertThat(state.transfer("t1")).as("ended at T0+100s").isPresent();
    assertThat(state.counts().forgottenTransfers()).isEqualTo(1);
    assertThat(state.violations()).isEmpty();
  }

  @Test
  void aStateRestoredFromItsImageForgetsWhatTheStateItWasTakenOfForgets() {
    List<Envelope> log = endingOutOfOrder(52, 56, 104, 106);
    FleetState straight = fold(WINDOW, log);

    for (int cut = 0; cut <= log.size(); cut++) {
      FleetState restored = FleetState.restore(fold(WINDOW, log.subList(0, cut)).image());
      log.subList(cut, log.size()).forEach(restored::apply);

      assertThat(StateHash.of(restored)).as("restored after %d events", cut).isEqualTo(StateHash.of(straight));
    }
    assertThat(straight.counts().forgottenTransfers()).isEqualTo(2);
  }

  @Test
  void neverForgetsATransferInFlightHoweverOld() {
    var log = after(new Log().append(Samples.request("t1", "p0", 1, "d0", 1)), 100);

    FleetState state = fold(WINDOW, log.envelopes());

    assertThat(state.inFlightTransfers()).extracting(TransferView::transferId).containsExactly("t1");
    assertThat(state.counts().forgottenTransfers()).isZero();
  }

  @Test
  void aReplayKeepsEveryTransfer() {
    FleetState state = FleetState.fold(after(completedTransfer("t1"), 100).envelopes());

    assertThat(state.transfer("t1")).isPresent();
    assertThat(state.keepEnded()).isEmpty();
    assertThat(state.counts().forgottenTransfers()).isZero();
  }

  @Test
  void takesARequestRepeatingAForgottenIdAsANewTransfer() {
    var log = after(completedTransfer("t1"), 10).append(Samples.request("t1", "p0", 1, "d0", 1));

    FleetState state = fold(WINDOW, log.envelopes());

    assertThat(state.transfer("t1").orElseThrow().status()).isEqualTo(TransferStatus.REQUESTED);
    assertThat(state.violations()).isEmpty();
  }

  @Test
  void aLateEventOfAForgottenTransferIsAViolationThatNamesTheWindow() {
    var log = after(completedTransfer("t1"), 10).append(new TransferDispatched("t1", "p0", "c0"));

    FleetState state = fold(WINDOW, log.envelopes());

    assertThat(state.violations()).singleElement().extracting(Violation::message).asString()
        .isEqualTo("transfer t1 dispatched before it was requested "
            + "(or over PT5S after it ended, when the fold had forgotten it)");
  }

  @Test
  void foldsWithDifferentWindowsHashDifferentlyEvenBeforeForgettingAnything() {
    List<Envelope> log = completedTransfer("t1").envelopes();

    assertThat(StateHash.of(fold(WINDOW, log))).isNotEqualTo(StateHash.of(fold(WINDOW.plusSeconds(1), log)))
        .isNotEqualTo(StateHash.of(FleetState.fold(log)));
  }

  @Test
  void refusesANegativeWindow() {
    assertThatThrownBy(() -> FleetState.keepingEnded(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not be negative");
  }
}
