package io.kvfleet.control.replay;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.events.codec.EventCodec;
import io.kvfleet.events.replay.LogRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

/**
 * The records after a snapshot, read a whole compressed frame per thread: each worker reads,
 * decompresses, parses and decodes one frame of the export ({@link ExportReader#ofFrame}), and the
 * calling thread folds the frames in file order, each batch as soon as it is decoded. A single
 * reading thread is what bounds {@link ReplayRunner#readFrom} (it decompresses and parses every line
 * before the pool decodes it); here nothing but the fold is serial. At most {@code threads}
 * frames are under way at once, frames past the point where the sink stopped are never started,
 * and the ones under way stop at their next record.
 */
final class FrameTail {
  /** Records a worker hands over at once. */
  static final int BATCH = 2_048;
  /**
   * Batches a worker may decode ahead of the fold: a writer's frame (100,000 records) and some. The
   * fold takes the frames in order, so the next frame's worker must be able to decode all of its
   * frame while the fold is still on the one before, or the two cores are not both used (a window
   * of 4 batches, tried, took 3.8-4.3 s where this takes 3.1-3.8 s for 999,000 records after a
   * snapshot). Past it a worker waits: a crafted export of one huge frame is not held decoded whole.
   */
  static final int AHEAD = 64;

  private FrameTail() {}

  /**
   * Hands the records of {@code frames[0]} (less its first {@code skip}) up to {@code frames[last]} to
   * {@code sink} in order, then those from {@code frames[last]} to the end of the file read as one
   * stream; stops when the sink says false. {@code frames} are consecutive frames of the export.
   */
  static void read(Path export, List<ExportWriter.Frame> frames, long skip, Predicate<LogRecord> sink, int threads) {
    read(export, frames, skip, sink, threads, AHEAD);
  }

  /** As {@link #read(Path, List, long, Predicate, int)}, with a window of {@code ahead} batches (tests use a small one). */
  static void read(Path export, List<ExportWriter.Frame> frames, long skip, Predicate<LogRecord> sink, int threads,
      int ahead) {
    if (frames.isEmpty()) {
      throw new IllegalArgumentException("no frame to read from");
    }
    ExportHeader header;
    try (var reader = ExportReader.open(export)) {
      header = reader.header();
    } catch (IOException e) {
      throw KvfleetException.badInput("cannot read the export: " + e.getMessage());
    }
    var codec = new EventCodec();
    var stop = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads),
        Thread.ofPlatform().name("kvfleet-frame-", 0).daemon().factory());
    try {
      var pending = new ArrayDeque<Feed>();
      int next = 0;
      boolean more = true;
      while (more && (next < frames.size() - 1 || !pending.isEmpty())) {
        // Frames ahead of the fold hold their decoded records: no more than one a thread (GC pays for the rest).
        while (next < frames.size() - 1 && pending.size() < Math.max(1, threads)) {
          var feed = new Feed(export, header, frames.get(next), frames.get(next + 1), next == 0 ? skip : 0, codec, stop,
              ahead);
          pool.execute(feed::run);
          pending.add(feed);
          next++;
        }
        more = pending.poll().foldInto(sink);
      }
      stop.set(true);
      if (more) {
        ReplayRunner.readFrom(export, frames.getLast(), frames.size() == 1 ? skip : 0, sink, false);
      }
    } finally {
      stop.set(true);
      pool.shutdownNow();
    }
  }

  /**
   * One frame's records, decoded by a worker and handed over in batches as they are ready, so the
   * fold starts on a frame before it is all decoded and a replay that stops early (an --until just
   * after the snapshot) leaves the frames under way after at most a batch each.
   */
  private static final class Feed {
    private static final List<LogRecord> END = List.of();

    private final Path export;
    private final ExportHeader header;
    private final ExportWriter.Frame from;
    private final ExportWriter.Frame to;
    private final long skip;
    private final EventCodec codec;
    private final AtomicBoolean stop;
    private final BlockingQueue<List<LogRecord>> batches;
    private volatile RuntimeException failure;

    Feed(Path export, ExportHeader header, ExportWriter.Frame from, ExportWriter.Frame to, long skip, EventCodec codec,
        AtomicBoolean stop, int ahead) {
      this.export = export;
      this.header = header;
      this.from = from;
      this.to = to;
      this.skip = skip;
      this.codec = codec;
      this.stop = stop;
      this.batches = new LinkedBlockingQueue<>(ahead);
    }

    void run() {
      boolean stopped = false;
      try (var reader = ExportReader.ofFrame(export, header, from, to)) {
        var batch = new ArrayList<LogRecord>(BATCH);
        long n = 0;
        for (StoredRecord r = reader.next(); r != null && !stop.get(); r = reader.next()) {
          if (n++ >= skip) {
            batch.add(r.decode(codec));
          }
          if (batch.size() == BATCH) {
            batches.put(batch);
            batch = new ArrayList<>(BATCH);
          }
        }
        batches.put(batch);
      } catch (InterruptedException e) {
        stopped = true; // the replay is over: nobody reads this frame any more
      } catch (IOException | RuntimeException e) {
        failure = e instanceof RuntimeException r ? r
            : KvfleetException.badInput("cannot read the export's frame at byte " + from.offset() + ": " + e.getMessage());
      } catch (Error e) { // out of memory, say: the fold must not go on as if the frame had ended
        failure = new IllegalStateException("reading the export's frame at byte " + from.offset() + " failed: " + e, e);
        throw e;
      } finally {
        if (!stopped) {
          end();
        }
      }
    }

    /** Marks the end of the frame, waiting for room: the fold reads on until it sees it, or the pool stops. */
    private void end() {
      try {
        batches.put(END);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    /** Hands this frame's records to {@code sink} as they come; false once the sink said false. */
    boolean foldInto(Predicate<LogRecord> sink) {
      try {
        for (var batch = batches.take(); batch != END; batch = batches.take()) {
          for (LogRecord r : batch) {
            if (!sink.test(r)) {
              return false;
            }
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while reading the export's frames", e);
      }
      if (failure != null) {
        throw failure;
      }
      return true;
    }
  }
}
