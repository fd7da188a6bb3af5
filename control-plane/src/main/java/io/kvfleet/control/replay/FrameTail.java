package io.kvfleet.control.replay;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.events.codec.EventCodec;
import io.kvfleet.events.replay.LogRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Predicate;

/**
 * The records after a snapshot, read a whole compressed frame per thread: each worker reads,
 * decompresses, parses and decodes one frame of the export ({@link ExportReader#ofFrame}), and the
 * calling thread folds the frames in file order. A single reading thread is what bounds
 * {@link ReplayRunner#readFrom} (it decompresses and parses every line before the pool decodes it);
 * here nothing but the fold is serial. At most {@code threads + 1} frames are held at once, and
 * frames past the point where the sink stopped are never started (the ones under way are dropped).
 */
final class FrameTail {
  private FrameTail() {}

  /**
   * Hands the records of {@code frames[0]} (less its first {@code skip}) up to {@code frames[last]} to
   * {@code sink} in order, then those from {@code frames[last]} to the end of the file read as one
   * stream; stops when the sink says false. {@code frames} are consecutive frames of the export.
   */
  static void read(Path export, List<ExportWriter.Frame> frames, long skip, Predicate<LogRecord> sink, int threads) {
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
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads),
        Thread.ofPlatform().name("kvfleet-frame-", 0).daemon().factory());
    try {
      var pending = new ArrayDeque<CompletableFuture<List<LogRecord>>>();
      int next = 0;
      boolean more = true;
      while (more && (next < frames.size() - 1 || !pending.isEmpty())) {
        while (next < frames.size() - 1 && pending.size() <= threads) {
          var from = frames.get(next);
          var to = frames.get(next + 1);
          long drop = next == 0 ? skip : 0;
          pending.add(CompletableFuture.supplyAsync(() -> decode(export, header, from, to, drop, codec), pool));
          next++;
        }
        more = foldAll(join(pending.poll()), sink);
      }
      if (more) {
        ReplayRunner.readFrom(export, frames.getLast(), frames.size() == 1 ? skip : 0, sink, false);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static boolean foldAll(List<LogRecord> records, Predicate<LogRecord> sink) {
    for (LogRecord r : records) {
      if (!sink.test(r)) {
        return false;
      }
    }
    return true;
  }

  /** One frame's records, decoded, less its first {@code skip}. */
  private static List<LogRecord> decode(Path export, ExportHeader header, ExportWriter.Frame from,
      ExportWriter.Frame to, long skip, EventCodec codec) {
    var records = new ArrayList<LogRecord>((int) Math.min(to.recordsBefore() - from.recordsBefore(), 1 << 20));
    try (var reader = ExportReader.ofFrame(export, header, from, to)) {
      long n = 0;
      for (StoredRecord r = reader.next(); r != null; r = reader.next()) {
        if (n++ >= skip) {
          records.add(r.decode(codec));
        }
      }
    } catch (IOException e) {
      throw KvfleetException.badInput("cannot read the export's frame at byte " + from.offset() + ": " + e.getMessage());
    }
    return records;
  }

  private static List<LogRecord> join(CompletableFuture<List<LogRecord>> frame) {
    try {
      return frame.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading the export's frames", e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
    }
  }
}
