package io.kvfleet.events.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.Samples;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.Histories;
import io.kvfleet.events.state.Log;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

class StateSnapshotTest {

  @Provide
  Arbitrary<List<Envelope>> histories() {
    return Histories.histories();
  }

  @Property(tries = 200)
  void restoresAStateWithTheSameHashAndTheSameViews(@ForAll("histories") List<Envelope> history) {
    FleetState state = FleetState.fold(history);
    var snapshot = StateSnapshot.of(state);

    FleetState restored = StateSnapshot.restore(snapshot.toBytes(), snapshot.hash());

    assertThat(snapshot.hash()).isEqualTo(StateHash.of(state));
    assertThat(StateHash.of(restored)).isEqualTo(StateHash.of(state));
    assertThat(restored.counts()).isEqualTo(state.counts());
    assertThat(restored.peers()).isEqualTo(state.peers());
    assertThat(restored.regions()).isEqualTo(state.regions());
    assertThat(restored.transfers()).isEqualTo(state.transfers());
    assertThat(restored.sequences()).isEqualTo(state.sequences());
    assertThat(restored.violations()).isEqualTo(state.violations());
    assertThat(restored.failuresByReason()).isEqualTo(state.failuresByReason());
  }

  @Property(tries = 200)
  void foldingOnFromARestoredStateEndsWhereFoldingTheWholeLogEnds(
      @ForAll("histories") List<Envelope> history, @ForAll @IntRange(max = 100) int cutPercent) {
    int cut = history.size() * cutPercent / 100;
    var snapshot = StateSnapshot.of(FleetState.fold(history.subList(0, cut)));

    FleetState resumed = StateSnapshot.restore(snapshot.toBytes(), snapshot.hash());
    history.subList(cut, history.size()).forEach(resumed::apply);

    assertThat(StateHash.of(resumed)).isEqualTo(StateHash.of(FleetState.fold(history)));
  }

  @Property(tries = 200)
  void aRestoredStateForgetsEndedTransfersExactlyAsTheStateItWasTakenOf(
      @ForAll("histories") List<Envelope> history, @ForAll @IntRange(max = 100) int cutPercent,
      @ForAll @IntRange(max = 20) int windowSeconds) {
    int cut = history.size() * cutPercent / 100;
    var window = java.time.Duration.ofSeconds(windowSeconds);
    FleetState straight = FleetState.keepingEnded(window);
    history.subList(0, cut).forEach(straight::apply);
    var snapshot = StateSnapshot.of(straight);

    FleetState resumed = StateSnapshot.restore(snapshot.toBytes(), snapshot.hash());
    history.subList(cut, history.size()).forEach(resumed::apply);
    history.subList(cut, history.size()).forEach(straight::apply);

    assertThat(resumed.keepEnded()).contains(window);
    assertThat(StateHash.of(resumed)).isEqualTo(StateHash.of(straight));
    assertThat(resumed.transfers()).isEqualTo(straight.transfers());
    assertThat(resumed.counts()).isEqualTo(straight.counts());
  }

  @Property(tries = 100)
  void refusesASnapshotWithAnyOneByteChanged(
      @ForAll("histories") List<Envelope> history, @ForAll @IntRange(max = 10_000) int where) {
    var snapshot = StateSnapshot.of(FleetState.fold(history));
    byte[] bytes = snapshot.toBytes();
    bytes[where % bytes.length] ^= 0x5a;

    assertThatThrownBy(() -> StateSnapshot.restore(bytes, snapshot.hash()))
        .isInstanceOf(InvalidSnapshotException.class);
  }

  /** The sample that once found a changed failure count accepted: the counts are rebuilt, so the hash missed it. */
  @Property(tries = 100, seed = "4186889306700604007")
  void refusesASnapshotWhoseStoredFailureCountsDisagreeWithItsFailures(
      @ForAll("histories") List<Envelope> history, @ForAll @IntRange(max = 10_000) int where) {
    refusesASnapshotWithAnyOneByteChanged(history, where);
  }

  @Property(tries = 50)
  void refusesATruncatedSnapshot(@ForAll("histories") List<Envelope> history, @ForAll @IntRange(max = 10_000) int at) {
    var snapshot = StateSnapshot.of(FleetState.fold(history));
    byte[] bytes = snapshot.toBytes();

    assertThatThrownBy(() -> StateSnapshot.restore(Arrays.copyOf(bytes, at % bytes.length), snapshot.hash()))
        .isInstanceOf(InvalidSnapshotException.class);
  }

  @org.junit.jupiter.api.Test
  void refusesASnapshotOfAnotherFoldVersionAndSaysSo() {
    var snapshot = StateSnapshot.of(new Log().append(new PeerJoined("n1", 1, "host-n1", "ucx-n1-1", List.of(Samples.ucx()))).fold());
    byte[] bytes = snapshot.toBytes();
    ByteBuffer.wrap(bytes).putInt(8, FleetState.FOLD_VERSION + 1);

    assertThatThrownBy(() -> StateSnapshot.restore(bytes, snapshot.hash()))
        .isInstanceOf(InvalidSnapshotException.class)
        .hasMessageContaining("fold version " + (FleetState.FOLD_VERSION + 1));
  }

  @org.junit.jupiter.api.Test
  void refusesASnapshotThatDoesNotRebuildTheHashItWasWrittenWith() {
    var snapshot = StateSnapshot.of(new Log().append(new PeerJoined("n1", 1, "host-n1", "ucx-n1-1", List.of(Samples.ucx()))).fold());

    assertThatThrownBy(() -> StateSnapshot.restore(snapshot.toBytes(), "0".repeat(64)))
        .isInstanceOf(InvalidSnapshotException.class)
        .hasMessageContaining("not the " + "0".repeat(64));
  }

  @org.junit.jupiter.api.Test
  void refusesBytesThatAreNotASnapshot() {
    assertThatThrownBy(() -> StateSnapshot.restore("{\"peers\":[]}".getBytes(), "x"))
        .isInstanceOf(InvalidSnapshotException.class)
        .hasMessageContaining("magic");
  }
}
