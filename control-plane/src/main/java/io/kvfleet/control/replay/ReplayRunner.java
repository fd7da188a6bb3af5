package io.kvfleet.control.replay;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.events.codec.EventCodec;
import io.kvfleet.events.replay.FoldOrder;
import io.kvfleet.events.replay.LogPosition;
import io.kvfleet.events.replay.LogRecord;
import io.kvfleet.events.replay.Replay;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Feeds a replay from a {@link LogSource}: in replay order (an export is written in it; Kafka is
 * merged into it as it is read), or in a coordinator's recorded {@link FoldOrder}, which needs the
 * whole log in memory to rearrange it. Records are decoded by a pool of {@code decodeThreads}
 * threads and folded on one (0 decodes on the reading thread too: everything on one core).
 */
public final class ReplayRunner {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ReplayRunner.class);
  /** Decoding threads by default: every core (reading and folding take one thread each besides). */
  public static final int DECODE_THREADS = Runtime.getRuntime().availableProcessors();

  private ReplayRunner() {}

  /** Reads the source into {@code replay} until the source ends or the replay stops. */
  public static void run(LogSource source, Replay replay, boolean progress) {
    read(source, replay::accept, progress, DECODE_THREADS);
  }

  /**
   * Reads the whole source, arranges it in {@code order}, and folds it into {@code replay}; the
   * records the order leaves out before its end ({@link FoldOrder#leftOut}).
   */
  public static List<LogPosition> run(LogSource source, Replay replay, FoldOrder order, boolean progress) {
    List<LogRecord> all = new ArrayList<>();
    read(source, r -> all.add(r) || true, progress, DECODE_THREADS);
    for (LogRecord r : order.arrange(all)) {
      if (!replay.accept(r)) {
        break;
      }
    }
    return order.leftOut(all);
  }

  /** {@link #read(LogSource, Predicate, boolean, int)} with {@link #DECODE_THREADS}. */
  public static void read(LogSource source, Predicate<LogRecord> sink, boolean progress) {
    read(source, sink, progress, DECODE_THREADS);
  }

  /**
   * Hands every record of the source, decoded, to {@code sink} in replay order until it says
   * false; the sink is called on one thread, and this returns after its last call.
   */
  public static void read(LogSource source, Predicate<LogRecord> sink, boolean progress, int decodeThreads) {
    if (decodeThreads <= 0) {
      var codec = new EventCodec();
      stored(source, r -> sink.test(r.decode(codec)), progress);
      return;
    }
    try (var pipeline = new DecodePipeline(decodeThreads, sink)) {
      stored(source, pipeline::accept, progress);
      pipeline.finish();
    }
  }

  /**
   * {@link #read} of an export from a frame on ({@link ExportWriter#frames}), leaving out the first
   * {@code skip} records of that frame undecoded: the records after a snapshot ({@link TimeTravel}).
   */
  public static void readFrom(java.nio.file.Path export, ExportWriter.Frame frame, long skip,
      Predicate<LogRecord> sink, boolean progress) {
    try (var pipeline = new DecodePipeline(DECODE_THREADS, sink); var reader = ExportReader.openAt(export, frame)) {
      var bar = progress ? Progress.onConsole("replay", 0) : Progress.none();
      long n = 0;
      for (StoredRecord r = reader.next(); r != null; r = reader.next()) {
        bar.update(++n);
        if (n > skip && !pipeline.accept(r)) {
          break;
        }
      }
      bar.done();
      pipeline.finish();
    } catch (IOException e) {
      throw KvfleetException.badInput("cannot read the export: " + e.getMessage());
    }
  }

  /** Hands every stored record of the source to {@code sink} in replay order, until it says false. */
  private static void stored(LogSource source, Predicate<StoredRecord> sink, boolean progress) {
    switch (source) {
      case LogSource.File f -> readFile(f, sink, progress);
      case LogSource.Kafka k -> {
        try (var log = KafkaLog.open(k.bootstrapServers(), k.topics(), Map.of())) {
          var bar = progress ? Progress.onConsole("replay", log.bounds().size()) : Progress.none();
          long[] n = {0};
          log.read(r -> {
            bar.update(++n[0]);
            return sink.test(StoredRecord.of(r));
          });
          bar.done();
        }
      }
    }
  }

  private static void readFile(LogSource.File f, Predicate<StoredRecord> sink, boolean progress) {
    try (var reader = ExportReader.open(f.path())) {
      long total = reader.header().endOffsets().values().stream().mapToLong(Long::longValue).sum()
          - reader.header().startOffsets().values().stream().mapToLong(Long::longValue).sum();
      var bar = progress ? Progress.onConsole("replay", total) : Progress.none();
      var coverage = new ExportCoverage(reader.header());
      long n = 0;
      boolean toTheEnd = true;
      try {
        for (StoredRecord r = reader.next(); r != null; r = reader.next()) {
          bar.update(++n);
          coverage.see(r);
          if (!sink.test(r)) {
            toTheEnd = false;
            break;
          }
        }
      } catch (IOException e) {
        throw torn(f.path(), n, e);
      }
      bar.done();
      var disagreements = coverage.disagreements(toTheEnd);
      if (!disagreements.isEmpty()) {
        LOG.warn("{} does not hold what its header says: {}", f.path(), disagreements);
        System.err.println("kvfleet: WARNING: " + f.path() + " does not hold what its header says (a file cut short,"
            + " or edited?); what follows is the state of the records it holds: "
            + io.kvfleet.control.console.EventLine.oneLine(String.join("; ", disagreements)));
      }
    } catch (IOException e) {
      throw torn(f.path(), 0, e);
    }
  }

  /** A torn or corrupted export: where, rather than a stack trace, and how to read what a cut-short file holds. */
  private static KvfleetException torn(java.nio.file.Path path, long read, IOException e) {
    String where = e.getMessage() != null && e.getMessage().startsWith(path.toString()) ? "" : path + ": ";
    boolean cut = e instanceof java.io.EOFException || String.valueOf(e.getMessage()).contains("Truncated");
    String name = path.getFileName().toString();
    String salvage = name.endsWith(".gz") ? "zcat " + path + " | head -n -1 | gzip > " + path + ".part.gz"
        : "zstdcat -q " + path + " | head -n -1 | zstd -q -o " + path + ".part.zst";
    return KvfleetException.badInput("cannot read the export" + (read > 0 ? " (" + read + " records read)" : "") + ": "
        + where + e.getMessage() + (cut ? "; the file ends early (a copy or a disk cut it short?): to replay the"
        + " whole records it holds, " + salvage + ", then replay that" : ""));
  }
}
