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
 * from the start reaches.
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

  @BeforeAll
  static void writeAnExportWithSnapshots() throws Exception {
    export = dir.resolve("fleet.jsonl.zst");
    // Frames every 2,000 records, snapshots every 5,000: the one at 5,000 skips 1,000 of its frame.
    var frames = SyntheticExport.write(export, 12_000, START, 2_000);
    newest = ExportSnapshots.write(export, frames, 5_000, Optional.empty()).get(1);
    original = Files.readAllBytes(newest);
    var replay = new Replay(new FleetState(), ReplayOptions.defaults().until(UNTIL));
    ReplayRunner.read(new LogSource.File(export), replay::accept, false);
    reference = StateHash.of(replay.finish().state());
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

  private static void assertPassedOver(Consumer<ObjectNode> edit, String reason) throws Exception {
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
      var result = TimeTravel.replay(export, ReplayOptions.defaults().until(UNTIL), Optional.empty(), false);

      assertThat(result.start().skipped()).singleElement().asString().startsWith(NEWEST + ": ").contains(reason);
      assertThat(result.start().snapshot()).get().extracting(s -> s.header().records()).isEqualTo(5_000L);
      assertThat(StateHash.of(result.replay().state())).isEqualTo(reference);
    } finally {
      Files.write(newest, original);
    }
  }
}
