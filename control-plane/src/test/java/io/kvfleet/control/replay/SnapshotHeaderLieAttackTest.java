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
 * The checks of an export snapshot's header (frame and skip make its record count, frames run
 * forward, each where a zstd frame starts) hold its numbers to one another and its offsets to the
 * export's frame starts, but never a frame's offset to its record count, nor the record count or
 * the latest timestamp to the state: a frame offset moved to another frame's start, or a changed
 * {@code records} or {@code maxTimestamp}, passes them, and the replay reaches another state than a
 * replay from the start, without a word.
 */
class SnapshotHeaderLieAttackTest {
  private static final Instant START = Instant.parse("2026-06-01T00:00:00Z");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String NEWEST = "at-00000000000000010000.kvsnap";
  @TempDir static Path dir;
  static Path export;
  static Path newest;
  static byte[] original;
  static List<ExportWriter.Frame> frames;

  @BeforeAll
  static void writeAnExportWithSnapshots() throws Exception {
    export = dir.resolve("fleet.jsonl.zst");
    frames = SyntheticExport.write(export, 12_000, START, 2_000);
    newest = ExportSnapshots.write(export, frames, 5_000, Optional.empty()).get(1);
    original = Files.readAllBytes(newest);
  }

  @Test
  void aFrameMovedToAnEarlierFrameIsNotRefolded() throws Exception {
    long earlier = frame(8_000).offset();
    assertTakenOrPassedOver(h -> ((ObjectNode) h.get("frame")).put("offset", earlier), at(11_000));
  }

  @Test
  void aFrameMovedToTheEndOfTheExportDoesNotLeaveTheRestOut() throws Exception {
    long end = Files.size(export);
    assertTakenOrPassedOver(h -> {
      ((ObjectNode) h.get("frame")).put("offset", end);
      h.putArray("following");
    }, at(11_000));
  }

  @Test
  void aLoweredMaxTimestampDoesNotTakeASnapshotPastTheUntil() throws Exception {
    assertTakenOrPassedOver(h -> h.put("maxTimestamp", START.toEpochMilli() + 5_000), at(7_000));
  }

  @Test
  void aLoweredRecordCountDoesNotReadPastACountUntil() throws Exception {
    assertTakenOrPassedOver(h -> {
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

  /** After {@code edit} to the newest snapshot's header, a replay towards {@code until} reaches the state one from the start reaches. */
  private static void assertTakenOrPassedOver(Consumer<ObjectNode> edit, Until until) throws Exception {
    var replay = new Replay(new FleetState(), ReplayOptions.defaults().until(until));
    ReplayRunner.read(new LogSource.File(export), replay::accept, false);
    String reference = StateHash.of(replay.finish().state());
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
      var result = TimeTravel.replay(export, ReplayOptions.defaults().until(until), Optional.empty(), false);

      assertThat(StateHash.of(result.replay().state()))
          .as("state after a replay from %s (skipped: %s)", result.start().snapshot().map(s -> s.file().getFileName()),
              result.start().skipped())
          .isEqualTo(reference);
    } finally {
      Files.write(newest, original);
    }
  }
}
