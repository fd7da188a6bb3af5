package io.kvfleet.events.state;

import static io.kvfleet.events.state.PeerFoldTest.joined;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.kvfleet.events.OpaqueEvent;
import io.kvfleet.events.PeerHeartbeat;
import org.junit.jupiter.api.Test;

class SequenceFoldTest {

  @Test
  void countsTheSequenceNumbersMissingBetweenTheLowestAndHighest() {
    FleetState state =
        new Log().append("n1", 1, 1, joined("n1", 1)).append("n1", 1, 4, beat()).append("n1", 1, 5, beat()).fold();

    assertThat(state.sequences()).containsExactly(new SequenceView("n1", 1, 1, 5, 2, 0));
    assertThat(state.counts().missingSequences()).isEqualTo(2);
  }

  @Test
  void aLateEventFillsItsGapWhateverOrderTopicsInterleaveIn() {
    FleetState state =
        new Log().append("n1", 1, 1, joined("n1", 1)).append("n1", 1, 3, beat()).append("n1", 1, 2, beat()).fold();

    assertThat(state.sequences()).containsExactly(new SequenceView("n1", 1, 1, 3, 0, 0));
  }

  @Test
  void doesNotCountEventsBeforeTheFirstOneSeenAsMissing() {
    FleetState state = new Log().append("n1", 1, 40, joined("n1", 1)).append("n1", 1, 41, beat()).fold();

    assertThat(state.sequences()).containsExactly(new SequenceView("n1", 1, 40, 41, 0, 0));
  }

  @Test
  void countsARedeliveredEventAndDoesNotFoldItAgain() {
    FleetState state = new Log().append("n1", 1, joined("n1", 1)).redeliver(0).fold();

    assertThat(state.sequences()).containsExactly(new SequenceView("n1", 1, 1, 1, 0, 1));
    assertThat(state.violations()).isEmpty();
    assertThat(state.appliedCount()).isEqualTo(2);
  }

  @Test
  void tracksEachProducerIncarnationApart() {
    FleetState state =
        new Log()
            .append("n1", 1, 1, joined("n1", 1))
            .append("n1", 2, 1, joined("n1", 2))
            .append("c0", 1, 1, beat())
            .fold();

    assertThat(state.sequences())
        .extracting(s -> s.producer() + "@" + s.epoch())
        .containsExactly("c0@1", "n1@1", "n1@2");
  }

  @Test
  void countsOpaqueEventsByWireType() {
    var migrated = new OpaqueEvent("n1", "n1", "io.kvfleet.peer.migrated", 1, "{}");
    var joinedV2 = new OpaqueEvent("n1", "n1", "io.kvfleet.peer.joined", 2, "{}");

    FleetState state = new Log().append(migrated, migrated, joinedV2).fold();

    assertThat(state.opaqueByType())
        .containsExactly(entry("io.kvfleet.peer.joined", 1L), entry("io.kvfleet.peer.migrated", 2L));
    assertThat(state.counts().opaque()).isEqualTo(3);
    assertThat(state.violations()).isEmpty();
  }

  private static PeerHeartbeat beat() {
    return new PeerHeartbeat("n1", 1, 5_000);
  }
}
