package io.kvfleet.events.replay;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The order one consumer folded a log in, as runs: "records of partition P from offset A to B",
 * then the next partition's run, and so on. A live coordinator folds records as its consumer
 * hands them over, which interleaves partitions differently on every run; it records that order
 * so a replay can fold the same records in the same sequence and reach the same hash.
 *
 * @param runs in fold order
 */
public record FoldOrder(List<Run> runs) {
  public FoldOrder {
    runs = List.copyOf(requireNonNull(runs, "runs must not be null"));
  }

  /** Records of one partition with offsets {@code from..to} (both included), folded one after another. */
  public record Run(String topic, int partition, long from, long to) {
    public Run {
      requireNonNull(topic, "topic must not be null");
      if (from < 0 || to < from) {
        throw new IllegalArgumentException("not a run of offsets: " + from + ".." + to);
      }
    }
  }

  /** No record folded yet. */
  public static final FoldOrder EMPTY = new FoldOrder(List.of());

  /** Per partition ({@code topic-partition}), the offset after the last record folded. */
  public SortedMap<String, Long> nextOffsets() {
    var next = new TreeMap<String, Long>();
    runs.forEach(r -> next.merge(LogPosition.partitionKey(r.topic(), r.partition()), r.to() + 1, Math::max));
    return next;
  }

  /**
   * The records of {@code log} (any order) arranged in this fold order; records outside every run
   * are left out, and so are runs' offsets the log lacks.
   */
  public List<LogRecord> arrange(Iterable<LogRecord> log) {
    Map<String, TreeMap<Long, LogRecord>> byPartition = new HashMap<>();
    for (LogRecord record : log) {
      byPartition.computeIfAbsent(record.position().partitionKey(), k -> new TreeMap<>())
          .put(record.position().offset(), record);
    }
    var arranged = new ArrayList<LogRecord>();
    for (Run run : runs) {
      var partition = byPartition.get(LogPosition.partitionKey(run.topic(), run.partition()));
      if (partition != null) {
        arranged.addAll(partition.subMap(run.from(), true, run.to(), true).values());
      }
    }
    return arranged;
  }

  /**
   * The records of {@code log} that this order leaves out although they lie before its end in their
   * partition: what the fold that recorded it skipped (a consumer skips no record it was handed; the
   * offsets a log has no record at, such as transaction markers, are not in {@code log}).
   */
  public List<LogPosition> leftOut(Iterable<LogRecord> log) {
    Map<String, TreeMap<Long, Long>> covered = new HashMap<>();
    for (Run run : runs) {
      covered.computeIfAbsent(LogPosition.partitionKey(run.topic(), run.partition()), k -> new TreeMap<>())
          .merge(run.from(), run.to(), Math::max);
    }
    var next = nextOffsets();
    var out = new ArrayList<LogPosition>();
    for (LogRecord record : log) {
      var at = record.position();
      if (at.offset() >= next.getOrDefault(at.partitionKey(), 0L)) {
        continue;
      }
      var run = covered.get(at.partitionKey()).floorEntry(at.offset());
      if (run == null || run.getValue() < at.offset()) {
        out.add(at);
      }
    }
    return out;
  }

  /** Builds a fold order one record at a time. Not thread-safe: its consumer's thread owns it. */
  public static final class Builder {
    private final List<Run> runs = new ArrayList<>();
    private final Map<String, Long> next = new HashMap<>();
    private String topic;
    private int partition;
    private long from;
    private long to;

    /** A builder that goes on from {@code start} (e.g. the order a snapshot was folded in). */
    public Builder(FoldOrder start) {
      runs.addAll(start.runs());
      next.putAll(start.nextOffsets());
    }

    /** Notes the record just folded; false, and nothing noted, if its offset was folded already. */
    public boolean add(String topic, int partition, long offset) {
      String key = LogPosition.partitionKey(topic, partition);
      if (offset < next.getOrDefault(key, 0L)) {
        return false;
      }
      next.put(key, offset + 1);
      if (this.topic != null && this.topic.equals(topic) && this.partition == partition) {
        to = offset;
        return true;
      }
      flush();
      this.topic = topic;
      this.partition = partition;
      from = offset;
      to = offset;
      return true;
    }

    /** Per partition, the offset after the last record folded. */
    public SortedMap<String, Long> nextOffsets() {
      return new TreeMap<>(next);
    }

    /** The order so far. */
    public FoldOrder build() {
      var all = new ArrayList<>(runs);
      if (topic != null) {
        all.add(new Run(topic, partition, from, to));
      }
      return new FoldOrder(all);
    }

    private void flush() {
      if (topic != null) {
        runs.add(new Run(topic, partition, from, to));
      }
    }
  }
}
