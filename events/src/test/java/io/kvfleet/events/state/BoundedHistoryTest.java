package io.kvfleet.events.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.Samples;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.snapshot.StateHash;
import io.kvfleet.events.snapshot.StateSnapshot;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A fold that forgets ended transfers (a long-running coordinator's) keeps the newest {@link
 * FleetState#KEPT_HISTORY} registration failures and violations and counts them all; a fold that
 * keeps every transfer (a replay's) keeps them all.
 */
class BoundedHistoryTest {
  private static final int MORE = FleetState.KEPT_HISTORY + 500;

  /** A node that joins, then a crash loop's worth of failed registrations and stray dispatches. */
  private static List<Envelope> noisyLog(int times) {
    var log = new Log().append("p0", 1, new PeerJoined("p0", 1, "h", "", List.of()));
    for (int i = 0; i < times; i++) {
      log.append("p0", 1, Samples.stateTensorFailure("p0", 1));
      log.append("coordinator", 1, new TransferDispatched("stray-" + i, "p0", "c0")); // never requested
    }
    return log.envelopes();
  }

  private static FleetState fold(FleetState state, List<Envelope> log) {
    log.forEach(state::apply);
    return state;
  }

  @Test
  void aForgettingFoldKeepsTheNewestAndCountsAll() {
    var log = noisyLog(MORE);

    FleetState state = fold(FleetState.keepingEnded(Duration.ofMinutes(10)), log);

    assertThat(state.failures()).hasSize(FleetState.KEPT_HISTORY);
    assertThat(state.violations()).hasSize(FleetState.KEPT_HISTORY);
    assertThat(state.counts().registrationFailures()).isEqualTo(MORE);
    assertThat(state.counts().violations()).isEqualTo(MORE);
    assertThat(state.failuresByReason().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(MORE);
    assertThat(state.violations().getLast().message()).contains("stray-" + (MORE - 1));
    assertThat(state.violationsFrom(state.violationCount() - 1)).singleElement()
        .satisfies(v -> assertThat(v.message()).contains("stray-" + (MORE - 1)));
  }

  @Test
  void aFoldThatKeepsEveryTransferKeepsEveryEntry() {
    FleetState state = fold(new FleetState(), noisyLog(MORE));

    assertThat(state.failures()).hasSize(MORE);
    assertThat(state.violations()).hasSize(MORE);
  }

  @Test
  void aRestoredForgettingFoldGoesOnAsTheOriginalWould() {
    var log = noisyLog(MORE);
    FleetState straight = fold(FleetState.keepingEnded(Duration.ofMinutes(10)), log);
    FleetState beforeCut = fold(FleetState.keepingEnded(Duration.ofMinutes(10)), log.subList(0, MORE));
    var snapshot = StateSnapshot.of(beforeCut);

    FleetState resumed = fold(StateSnapshot.restore(snapshot.toBytes(), snapshot.hash()), log.subList(MORE, log.size()));

    assertThat(StateHash.of(resumed)).isEqualTo(StateHash.of(straight));
    assertThat(resumed.counts()).isEqualTo(straight.counts());
  }
}
