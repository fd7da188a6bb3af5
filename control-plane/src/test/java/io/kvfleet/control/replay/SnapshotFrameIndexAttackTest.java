package io.kvfleet.control.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.replay.bench.SyntheticExport;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An export snapshot's header names the compressed frames the records after it lie in; the
 * CRC-32C covers the state, not that header line, so one changed digit in a frame offset goes
 * unnoticed. The frame reader sized its buffer {@code to.offset - from.offset} before reading: a
 * frame index that runs backwards was a {@link NegativeArraySizeException}, one past 2 GiB an
 * {@link ArithmeticException}, and {@code kvfleet replay --until} died with a stack trace (exit 1)
 * instead of a clear message. Such a snapshot is now passed over with its reason, and the replay
 * starts from an older one ({@link SnapshotPlaceAttackTest} checks the state it reaches).
 */
class SnapshotFrameIndexAttackTest {
  private static final Instant START = Instant.parse("2026-06-01T00:00:00Z");
  @TempDir static Path dir;
  static Path export;
  static Path snapshot;
  static byte[] original;

  @BeforeAll
  static void writeAnExportWithSnapshots() throws Exception {
    export = dir.resolve("fleet.jsonl.zst");
    var frames = SyntheticExport.write(export, 6_000, START, 1_000);
    // The snapshot after 4,000 records names the frames at 5,000 and 6,000 for the tail after it.
    snapshot = ExportSnapshots.write(export, frames, 2_000, Optional.empty()).get(1);
    original = Files.readAllBytes(snapshot);
  }

  @Test
  void aFrameIndexRunningBackwardsIsPassedOverNotANegativeArraySize() throws Exception {
    var run = replayWithFollowingFrameAt(1);

    assertThat(run.err()).doesNotContain("Exception");
    assertThat(run.out()).contains("snapshot skipped: at-00000000000000004000.kvsnap: its frames do not run forward")
        .contains("Started from snapshot").contains("at-00000000000000002000.kvsnap");
    assertThat(run.exitCode()).isZero();
  }

  @Test
  void aFrameIndexPastTwoGigabytesIsPassedOverNotAnOverflow() throws Exception {
    var run = replayWithFollowingFrameAt(9_000_000_000L);

    assertThat(run.err()).doesNotContain("Exception");
    assertThat(run.out()).contains("snapshot skipped: at-00000000000000004000.kvsnap: no compressed frame of the"
        + " export starts at byte 9000000000").contains("at-00000000000000002000.kvsnap");
    assertThat(run.exitCode()).isZero();
  }

  /** {@code replay --until} (which starts from the snapshot) after the first following frame is moved to {@code offset}. */
  private static Cli.Run replayWithFollowingFrameAt(long offset) throws Exception {
    int newline = 0;
    while (original[newline] != '\n') {
      newline++;
    }
    String header = new String(original, 0, newline, StandardCharsets.UTF_8);
    String lying = header.replaceFirst("\"following\":\\[\\{\"recordsBefore\":(\\d+),\"offset\":\\d+",
        "\"following\":[{\"recordsBefore\":$1,\"offset\":" + offset);
    assertThat(lying).isNotEqualTo(header);
    var bytes = new ByteArrayOutputStream();
    bytes.write(lying.getBytes(StandardCharsets.UTF_8));
    bytes.write(original, newline, original.length - newline);
    Files.write(snapshot, bytes.toByteArray());
    try {
      return Cli.run("replay", "--file", export.toString(), "--until", START.plusMillis(4_500).toString());
    } finally {
      Files.write(snapshot, original);
    }
  }
}
