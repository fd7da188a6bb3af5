package io.kvfleet.control.replay;

import static java.util.Objects.requireNonNull;

import io.kvfleet.control.KvfleetException;
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
    try (var log = KafkaLog.open(options.bootstrapServers(), options.topics(), options.ranges())) {
      var bounds = log.bounds();
      var header = new ExportHeader(ExportHeader.FORMAT, ExportHeader.VERSION, clock.instant(),
          options.bootstrapServers(), options.topics(), ExportHeader.ORDER, options.describeFilter(),
          bounds.start(), bounds.end());
      var bar = progress ? Progress.onConsole("export", bounds.size()) : Progress.none();
      try (var writer = ExportWriter.create(file, header); var stages = new ExportStages(writer, options)) {
        // This thread reads and merges; the records are checked and written on two more (ExportStages).
        long[] read = {0};
        log.read(consumed -> {
          bar.update(++read[0]);
          return stages.accept(consumed);
        });
        stages.finish();
        bar.done();
        writer.finish();
        return new Summary(file, stages.written(), stages.malformed(), stages.byTopic(), stages.first(),
            stages.last(), writer.bytesWritten(), Duration.ofNanos(System.nanoTime() - started), header,
            writer.frames());
      }
    } catch (IOException | UncheckedIOException e) {
      Throwable why = e instanceof UncheckedIOException u ? u.getCause() : e;
      throw KvfleetException.badInput("cannot write " + file + ": " + why);
    }
  }

}
