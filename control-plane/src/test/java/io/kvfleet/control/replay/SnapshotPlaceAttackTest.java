package io.kvfleet.control.replay;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvfleet.control.replay.bench.SyntheticExport;
import io.kvfleet.events.replay.Replay;
import io.kvfleet.events.replay.ReplayOptions;
import io.kvfleet.events.replay.Until;
import io.kvfleet.events.snapshot.StateHash;
import io.kvfleet.events.state.FleetState;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An export snapshot's header says where in the export the records after its state start (a
 * frame and how many records of it to skip); its CRC-32C covers the state, not that line. A skip
 * changed to a negative number refolded records, one made larger left records out, and a frame
 * offset moved inside a frame ended the replay with an error: each without passing the snapshot
 * over. Each is now a snapshot skipped with its reason, and the replay reaches the state a replay
 * from the start reaches. So do a frame moved to another frame's start and a changed record count or
 * latest time, which the header's own CRC-32C catches.
 */
class SnapshotPlaceAttackTest {
  private static final Instant START = Instant.parse("2026-06-01T00:00:00Z");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Until UNTIL = new Until.AtTime(START.plusMillis(11_000));
  private static final String NEWEST = "at-00000000000000010000.kvsnap";
  @TempDir static Path dir;
  static Path export;
  static Path newest;
  static byte[] original;
  static String reference;
  static List<ExportWriter.Frame> frames;

  @BeforeAll
  static void writeAnExportWithSnapshots() throws Exception {
    export = dir.resolve("fleet.jsonl.zst");
    // Frames every 2,000 records, snapshots every 5,000: the one at 5,000 skips 1,000 of its frame.
    frames = SyntheticExport.write(export, 12_000, START, 2_000);
    newest = ExportSnapshots.write(export, frames, 5_000, Optional.empty()).get(1);
    original = Files.readAllBytes(newest);
    reference = fromTheStart(UNTIL);
  }

  @Test
  void aNegativeSkipIsPassedOverNotRefolded() throws Exception {
    assertPassedOver(h -> h.put("skip", -500), "does not make its 10000 records");
  }

  @Test
  void aLargerSkipIsPassedOverNotLeftOut() throws Exception {
    assertPassedOver(h -> h.put("skip", 700), "does not make its 10000 records");
  }

  @Test
  void aFrameMovedInsideAFrameIsPassedOver() throws Exception {
    assertPassedOver(h -> ((ObjectNode) h.get("frame")).put("offset", h.get("frame").get("offset").asLong() + 1),
        "no compressed frame of the export starts at byte");
  }

  @Test
  void aFrameIndexRunningBackwardsIsPassedOver() throws Exception {
    assertPassedOver(h -> ((ObjectNode) h.get("following").get(0)).put("offset", 1), "do not run forward");
  }

  @Test
  void aSnapshotOfTheFormerFormatIsPassedOverWithItsVersion() throws Exception {
    assertPassedOver(h -> h.put("version", 1), "version 1, this build reads");
  }

  @Test
  void theSnapshotAsWrittenIsTaken() {
    var result = TimeTravel.replay(export, ReplayOptions.defaults().until(UNTIL), Optional.empty(), false);

    assertThat(result.start().skipped()).isEmpty();
    assertThat(result.start().snapshot()).get().extracting(s -> s.header().records()).isEqualTo(10_000L);
    assertThat(StateHash.of(result.replay().state())).isEqualTo(reference);
  }

  // A frame moved to another frame's start, or a changed record count or latest time, passed the
  // checks of how the header's numbers fit together; the header's own CRC-32C catches them.

  @Test
  void aFrameMovedToAnEarlierFrameIsNotRefolded() throws Exception {
    long earlier = frame(8_000).offset();
    assertSameState(h -> ((ObjectNode) h.get("frame")).put("offset", earlier), at(11_000));
  }

  @Test
  void aFrameMovedToTheEndOfTheExportDoesNotLeaveTheRestOut() throws Exception {
    long end = Files.size(export);
    assertSameState(h -> {
      ((ObjectNode) h.get("frame")).put("offset", end);
      h.putArray("following");
    }, at(11_000));
  }

  @Test
  void aLoweredMaxTimestampDoesNotTakeASnapshotPastTheUntil() throws Exception {
    assertSameState(h -> h.put("maxTimestamp", START.toEpochMilli() + 5_000), at(7_000));
  }

  @Test
  void aLoweredRecordCountDoesNotReadPastACountUntil() throws Exception {
    assertSameState(h -> {
      h.put("records", 9_000);
      ((ObjectNode) h.get("frame")).put("recordsBefore", h.get("frame").get("recordsBefore").asLong() - 1_000);
    }, new Until.AfterCount(10_500));
  }

  private static Until at(long millis) {
    return new Until.AtTime(START.plusMillis(millis));
  }

  private static ExportWriter.Frame frame(long recordsBefore) {
    return frames.stream().filter(f -> f.recordsBefore() == recordsBefore).findFirst().orElseThrow();
  }

  private static String fromTheStart(Until until) {
    var replay = new Replay(new FleetState(), ReplayOptions.defaults().until(until));
    ReplayRunner.read(new LogSource.File(export), replay::accept, false);
    return StateHash.of(replay.finish().state());
  }

  /** After {@code edit} to the newest snapshot's header, the newest is passed over for {@code reason}. */
  private static void assertPassedOver(Consumer<ObjectNode> edit, String reason) throws Exception {
    var result = travelAfter(edit, UNTIL);

    assertThat(result.start().skipped()).singleElement().asString().startsWith(NEWEST + ": ").contains(reason);
    assertThat(result.start().snapshot()).get().extracting(s -> s.header().records()).isEqualTo(5_000L);
    assertThat(StateHash.of(result.replay().state())).isEqualTo(reference);
  }

  /** After {@code edit}, a replay towards {@code until} reaches the state one from the start reaches. */
  private static void assertSameState(Consumer<ObjectNode> edit, Until until) throws Exception {
    var result = travelAfter(edit, until);

    assertThat(StateHash.of(result.replay().state()))
        .as("state after a replay from %s (skipped: %s)", result.start().snapshot().map(s -> s.file().getFileName()),
            result.start().skipped())
        .isEqualTo(fromTheStart(until));
  }

  /** {@code replay --until} with the newest snapshot's header line edited, the file put back after. */
  private static TimeTravel.Result travelAfter(Consumer<ObjectNode> edit, Until until) throws Exception {
    int newline = 0;
    while (original[newline] != '\n') {
      newline++;
    }
    var header = (ObjectNode) JSON.readTree(new String(original, 0, newline, StandardCharsets.UTF_8));
    edit.accept(header);
    var bytes = new ByteArrayOutputStream();
    bytes.write(JSON.writeValueAsBytes(header));
    bytes.write(original, newline, original.length - newline);
    Files.write(newest, bytes.toByteArray());
    try {
      return TimeTravel.replay(export, ReplayOptions.defaults().until(until), Optional.empty(), false);
    } finally {
      Files.write(newest, original);
    }
  }
}
