package io.kvfleet.events.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.OpaqueEvent;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A forgetting fold's memory does not grow with what a writer chooses to name: types and epochs. */
class BoundedByWritersTest {
  private static FleetState forgetting(Log log) {
    var state = FleetState.keepingEnded(Duration.ofMinutes(10));
    log.envelopes().forEach(state::apply);
    return state;
  }

  @Test
  void countsTypesBeyondTheKeptOnesAndOverlongOnesUnderOneName() {
    var log = new Log();
    for (int i = 0; i < FleetState.KEPT_TYPES * 3; i++) {
      log.append("r0", 1, new OpaqueEvent("", "", "io.example.t" + i, 1, "{}"));
    }
    log.append("r0", 1, new OpaqueEvent("", "", "io.example.t0", 1, "{}"));
    log.append("r0", 1, new OpaqueEvent("", "", "x".repeat(FleetState.KEPT_TYPE_LENGTH + 1), 1, "{}"));

    FleetState state = forgetting(log);

    assertThat(state.opaqueByType()).hasSize(FleetState.KEPT_TYPES).containsEntry("io.example.t0", 2L)
        .containsEntry(FleetState.OTHER_TYPES, FleetState.KEPT_TYPES * 2L + 2);
    assertThat(state.counts().opaque()).isEqualTo(FleetState.KEPT_TYPES * 3L + 2);
  }

  @Test
  void aReplayCountsEveryTypeByName() {
    var log = new Log();
    for (int i = 0; i < FleetState.KEPT_TYPES * 2; i++) {
      log.append("r0", 1, new OpaqueEvent("", "", "io.example.t" + i, 1, "{}"));
    }

    assertThat(log.fold().opaqueByType()).hasSize(FleetState.KEPT_TYPES * 2);
  }

  @Test
  void keepsTheNewestEpochsOfAProducerAndDoesNotFoldAnOlderOne() {
    var log = new Log();
    for (int epoch = 1; epoch <= FleetState.KEPT_EPOCHS + 5; epoch++) {
      log.append("n1", epoch, 1, new OpaqueEvent("n1", "", "io.example.noise", 1, "{}"));
    }
    log.append("n1", 2, 2, new OpaqueEvent("n1", "", "io.example.noise", 1, "{}"));

    FleetState state = forgetting(log);

    assertThat(state.sequences()).hasSize(FleetState.KEPT_EPOCHS)
        .allSatisfy(s -> assertThat(s.epoch()).isGreaterThan(5));
    assertThat(state.hasSeen("n1", 2, 2)).as("nothing is decided on an event the fold did not fold").isTrue();
    assertThat(state.violations()).singleElement().extracting(Violation::message).asString()
        .contains("n1 epoch 2, older than the " + FleetState.KEPT_EPOCHS + " newest epochs");
  }

  @Test
  void doesNotFoldAnEpochForgottenRightAfterTheFoldLastLookedItUp() {
    var log = new Log();
    for (int epoch = 1; epoch <= FleetState.KEPT_EPOCHS; epoch++) {
      log.append("n1", epoch, 1, new OpaqueEvent("n1", "", "io.example.noise", 1, "{}"));
    }
    log.append("n1", 1, 2, new OpaqueEvent("n1", "", "io.example.noise", 1, "{}")); // epoch 1 looked up last...
    log.append("n1", FleetState.KEPT_EPOCHS + 1, 1, new OpaqueEvent("n1", "", "io.example.noise", 1, "{}")); // ...and forgotten
    log.append("n1", 1, 3, new OpaqueEvent("n1", "", "io.example.noise", 1, "{}"));

    FleetState state = forgetting(log);

    assertThat(state.sequences()).hasSize(FleetState.KEPT_EPOCHS).noneSatisfy(s -> assertThat(s.epoch()).isEqualTo(1));
    assertThat(state.violations()).singleElement().extracting(Violation::message).asString()
        .contains("n1 epoch 1, older than the " + FleetState.KEPT_EPOCHS + " newest epochs");
  }
}
