package io.kvfleet.events.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.Histories;
import io.kvfleet.events.state.StateImage;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** A snapshot in segments (the transfers in runs, decoded in parallel) rebuilds the state it was written of, or is refused. */
class SnapshotSegmentsTest {

  @Provide
  Arbitrary<List<Envelope>> histories() {
    return Histories.histories();
  }

  private static byte[] inSegments(FleetState state, int transfersPerSegment) throws Exception {
    var bytes = new ByteArrayOutputStream();
    SnapshotWriter.write(state.image(), bytes, transfersPerSegment);
    return bytes.toByteArray();
  }

  private static long crc(byte[] bytes) {
    var crc = new CRC32C();
    crc.update(bytes);
    return crc.getValue();
  }

  @Property(tries = 200)
  void restoresAStateWrittenInRunsOfAnyLengthWithItsHash(
      @ForAll("histories") List<Envelope> history, @ForAll @IntRange(min = 1, max = 5) int perSegment) throws Exception {
    FleetState state = FleetState.fold(history);

    FleetState restored = StateSnapshot.restore(inSegments(state, perSegment), StateHash.of(state));

    assertThat(StateHash.of(restored)).isEqualTo(StateHash.of(state));
    assertThat(restored.transfers()).isEqualTo(state.transfers());
  }

  @Property(tries = 100)
  void restoringByChecksumRefusesASnapshotWithAnyOneByteChanged(
      @ForAll("histories") List<Envelope> history, @ForAll @IntRange(max = 10_000) int where) throws Exception {
    FleetState state = FleetState.fold(history);
    byte[] bytes = inSegments(state, 2);
    long crc = crc(bytes);
    bytes[where % bytes.length] ^= 0x5a;

    assertThatThrownBy(() -> StateSnapshot.restoreByChecksum(bytes, crc, state.appliedCount()))
        .isInstanceOf(InvalidSnapshotException.class)
        .hasMessageContaining("CRC-32C");
  }

  @Property(tries = 100)
  void restoringByChecksumReachesTheStateItWasTakenOf(@ForAll("histories") List<Envelope> history) throws Exception {
    FleetState state = FleetState.fold(history);
    byte[] bytes = inSegments(state, 3);

    FleetState restored = StateSnapshot.restoreByChecksum(bytes, crc(bytes), state.appliedCount());

    assertThat(StateHash.of(restored)).isEqualTo(StateHash.of(state));
  }

  @Property(tries = 50)
  void refusesRunsOfTransfersOutOfOrder(@ForAll("histories") List<Envelope> history) throws Exception {
    StateImage image = FleetState.fold(history).image();
    Assume.that(image.transfers().size() >= 2);
    var first = new TreeMap<String, Object>(image.transfers().headMap(image.transfers().lastKey()));
    var last = new TreeMap<String, Object>(image.transfers().tailMap(image.transfers().lastKey()));

    assertThatThrownBy(() -> SnapshotSegments.assemble(segments(image, last, first)))
        .isInstanceOf(InvalidSnapshotException.class)
        .hasMessageContaining("out of order");
    assertThatThrownBy(() -> SnapshotSegments.assemble(segments(image, last, last)))
        .isInstanceOf(InvalidSnapshotException.class)
        .hasMessageContaining("out of order");
  }

  @Property(tries = 20)
  void refusesTransfersInTheFirstSegment(@ForAll("histories") List<Envelope> history) throws Exception {
    StateImage image = FleetState.fold(history).image();
    Assume.that(!image.transfers().isEmpty());

    assertThatThrownBy(() -> SnapshotSegments.assemble(List.of(ByteBuffer.wrap(SnapshotWriter.segment(image)))))
        .isInstanceOf(InvalidSnapshotException.class)
        .hasMessageContaining("belong in later ones");
  }

  private static List<ByteBuffer> segments(StateImage image, Object... runs) throws Exception {
    var segments = new java.util.ArrayList<ByteBuffer>();
    segments.add(ByteBuffer.wrap(SnapshotWriter.segment(SnapshotSegments.withTransfers(image, new TreeMap<>()))));
    for (Object run : runs) {
      segments.add(ByteBuffer.wrap(SnapshotWriter.segment(run)));
    }
    return segments;
  }
}
