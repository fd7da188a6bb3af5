package io.kvfleet.control.replay;

import static java.util.Objects.requireNonNull;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EventCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/** Copies fleet topics (all, a time or offset range, or one node's records) from Kafka to an export file. */
public final class Exporter {
  private Exporter() {}

  /**
   * What to export.
   *
   * @param ranges offset ranges by {@code topic-partition}; partitions not named are read whole
   * @param since the first record timestamp kept (null: from the start)
   * @param until the last record timestamp kept (null: to the end)
   * @param node keep only this node's records (null: every node)
   */
  public record Options(String bootstrapServers, List<String> topics, Map<String, OffsetRange> ranges,
      Instant since, Instant until, String node) {
    public Options {
      requireNonNull(bootstrapServers, "bootstrapServers must not be null");
      topics = List.copyOf(requireNonNull(topics, "topics must not be null"));
      ranges = Map.copyOf(requireNonNull(ranges, "ranges must not be null"));
    }

    String describeFilter() {
      var parts = new ArrayList<String>();
      ranges.values().forEach(r -> parts.add("offsets " + r.partitionKey() + ":" + r.from() + ".."
          + (r.to() >= Long.MAX_VALUE - 1 ? "" : r.to())));
      if (since != null) {
        parts.add("since " + since);
      }
      if (until != null) {
        parts.add("until " + until);
      }
      if (node != null) {
        parts.add("node " + node);
      }
      return parts.isEmpty() ? "none" : String.join(", ", parts);
    }
  }

  /**
   * What an export wrote. {@code malformed} counts the values kept as base64: with {@code node}, those
   * that are not events; without, those that are not JSON (the rest are decoded when replayed).
   */
  public record Summary(Path file, long records, long malformed, SortedMap<String, Long> byTopic, Instant first,
      Instant last, long fileBytes, Duration elapsed, ExportHeader header, List<ExportWriter.Frame> frames) {}

  /** Exports to {@code file}, drawing progress as it goes. */
  public static Summary export(Options options, Path file, Clock clock, boolean progress) {
    long started = System.nanoTime();
    var codec = new EventCodec();
    var nodeFilter = options.node() == null ? null : new NodeFilter(options.node());
    try (var log = KafkaLog.open(options.bootstrapServers(), options.topics(), options.ranges())) {
      var bounds = log.bounds();
      var header = new ExportHeader(ExportHeader.FORMAT, ExportHeader.VERSION, clock.instant(),
          options.bootstrapServers(), options.topics(), ExportHeader.ORDER, options.describeFilter(),
          bounds.start(), bounds.end());
      var bar = progress ? Progress.onConsole("export", bounds.size()) : Progress.none();
      var count = new long[3]; // read, written, malformed
      var byTopic = new java.util.HashMap<String, long[]>(); // a counter per topic, not a boxed Long per record
      long[] times = {Long.MIN_VALUE, Long.MIN_VALUE}; // first and last record timestamps written
      long fileBytes;
      List<ExportWriter.Frame> frames;
      try (var writer = ExportWriter.create(file, header)) {
        // This thread reads and merges; the lines are checked and written on another (Handoff).
        try (var lines = new Handoff<StoredRecord>("kvfleet-export-writer", r -> {
          if (!inTime(options, r.timestamp())) {
            return;
          }
          if (nodeFilter == null) {
            // No node to pick out: nothing needs the event, so the value is checked as JSON, not decoded.
            count[2] += write(writer, r) ? 0 : 1;
          } else {
            Decoded decoded = r.value() == null ? new Decoded.Malformed("empty record", new byte[0])
                : codec.decode(r.value());
            if (!nodeFilter.keeps(r.keyText(), decoded)) {
              return;
            }
            write(writer, r, decoded);
            count[2] += decoded instanceof Decoded.Malformed ? 1 : 0;
          }
          count[1]++;
          byTopic.computeIfAbsent(r.topic(), t -> new long[1])[0]++;
          times[0] = times[0] == Long.MIN_VALUE ? r.timestamp() : times[0];
          times[1] = r.timestamp();
        })) {
          log.read(consumed -> {
            bar.update(++count[0]);
            return lines.accept(StoredRecord.of(consumed));
          });
          lines.finish(); // after it, this thread sees what the writer thread counted (Thread.join)
        }
        bar.done();
        writer.finish();
        fileBytes = writer.bytesWritten();
        frames = writer.frames();
      }
      var topics = new TreeMap<String, Long>();
      byTopic.forEach((t, n) -> topics.put(t, n[0]));
      return new Summary(file, count[1], count[2], topics, instant(times[0]), instant(times[1]), fileBytes,
          Duration.ofNanos(System.nanoTime() - started), header, frames);
    } catch (IOException | UncheckedIOException e) {
      Throwable why = e instanceof UncheckedIOException u ? u.getCause() : e;
      throw KvfleetException.badInput("cannot write " + file + ": " + why);
    }
  }

  private static Instant instant(long millis) {
    return millis == Long.MIN_VALUE ? null : Instant.ofEpochMilli(millis);
  }

  private static boolean inTime(Options options, long timestamp) {
    return (options.since() == null || timestamp >= options.since().toEpochMilli())
        && (options.until() == null || timestamp <= options.until().toEpochMilli());
  }

  /** Writes {@code r} undecoded; whether its value was embedded as JSON. */
  private static boolean write(ExportWriter writer, StoredRecord r) {
    try {
      return writer.write(r);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void write(ExportWriter writer, StoredRecord r, Decoded decoded) {
    try {
      writer.write(r, decoded);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
