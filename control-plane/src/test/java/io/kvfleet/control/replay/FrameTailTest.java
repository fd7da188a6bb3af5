package io.kvfleet.control.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.replay.bench.SyntheticExport;
import io.kvfleet.events.replay.LogPosition;
import io.kvfleet.events.replay.LogRecord;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FrameTail} over frames longer than the window a worker may decode ahead of the fold, so
 * that its workers wait on a full window: the records still come in file order, and a fold that
 * stops early leaves no worker behind.
 */
class FrameTailTest {
  /** A worker's window here: small, so that frames longer than it stay small too. */
  private static final int AHEAD = 2;
  private static final int FRAME = (AHEAD + 8) * FrameTail.BATCH; // more than a worker's window
  private static final int EVENTS = 3 * FRAME;
  @TempDir static Path dir;
  static Path export;
  static List<ExportWriter.Frame> frames;

  @BeforeAll
  static void writeAnExportOfLongFrames() throws Exception {
    export = dir.resolve("long-frames.jsonl.zst");
    frames = new ArrayList<>(List.of(new ExportWriter.Frame(0, 0)));
    frames.addAll(SyntheticExport.write(export, EVENTS, Instant.parse("2026-06-01T00:00:00Z"), FRAME));
  }

  @Test
  void handsOverEveryRecordInFileOrderWhileItsWorkersWaitForTheFold() {
    var reference = new ArrayList<LogPosition>();
    ReplayRunner.read(new LogSource.File(export), r -> reference.add(r.position()), false);
    var read = new ArrayList<LogPosition>();

    FrameTail.read(export, frames, 0, (LogRecord r) -> read.add(r.position()), 2, AHEAD);

    assertThat(reference).hasSizeGreaterThanOrEqualTo(EVENTS);
    assertThat(read).containsExactlyElementsOf(reference);
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS) // a hang, not a speed: the run takes seconds
  void aFoldThatStopsEarlyLeavesNoWorkerWaitingOnAFullWindow() throws InterruptedException {
    var folded = new AtomicInteger();

    // The fold stops only once both workers wait on full windows (a state, not a time).
    FrameTail.read(export, frames, 0, r -> folded.incrementAndGet() < 10 || !bothWorkersWait(), 2, AHEAD);

    assertThat(folded).hasValue(10);
    for (Thread t : frameThreads()) {
      t.join(TimeUnit.SECONDS.toMillis(60));
    }
    assertThat(frameThreads()).as("frame workers still alive").isEmpty();
  }

  /** Waits until both frame workers are parked (on full windows: each frame outlasts its window); true then. */
  private static boolean bothWorkersWait() {
    try {
      while (frameThreads().size() != 2 || !frameThreads().stream().allMatch(t -> t.getState() == Thread.State.WAITING)) {
        Thread.sleep(10);
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static List<Thread> frameThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().startsWith("kvfleet-frame-") && t.isAlive()).toList();
  }
}
