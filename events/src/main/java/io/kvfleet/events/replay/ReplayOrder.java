package io.kvfleet.events.replay;

import io.kvfleet.events.Topics;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The order replay folds a multi-partition log in, the same from Kafka and from an exported file:
 * the partitions are merged, each kept in its own offset order, by taking next the head record
 * with the smallest (record timestamp, topic in {@link Topics#ALL} order, partition, offset).
 * The merge is deterministic for a given set of records, so every replay of the same log (and
 * every export of it) folds the same sequence and reaches the same hash. A live coordinator folds
 * in the order its consumer received records instead; it reports that order, and
 * {@link FoldOrder} replays a log in it.
 */
public final class ReplayOrder {
  private ReplayOrder() {}

  /** Compares the heads of two partitions: which one replay takes first. */
  public static int compare(long timestampA, LogPosition a, long timestampB, LogPosition b) {
    return compare(timestampA, a.topic(), a.partition(), a.offset(), timestampB, b.topic(), b.partition(), b.offset());
  }

  /** {@link #compare(long, LogPosition, long, LogPosition)} without building positions, for readers' hot loops. */
  public static int compare(long timestampA, String topicA, int partitionA, long offsetA,
      long timestampB, String topicB, int partitionB, long offsetB) {
    int byTime = Long.compare(timestampA, timestampB);
    if (byTime != 0) {
      return byTime;
    }
    if (!topicA.equals(topicB)) {
      int byTopic = Integer.compare(rank(topicA), rank(topicB));
      return byTopic != 0 ? byTopic : topicA.compareTo(topicB);
    }
    int byPartition = Integer.compare(partitionA, partitionB);
    return byPartition != 0 ? byPartition : Long.compare(offsetA, offsetB);
  }

  /**
   * Compares two records as heads of their partitions. Sorting a log by it is the merge only when
   * no partition's timestamps go backwards; {@link #merge} is the merge in every case.
   */
  public static final Comparator<LogRecord> RECORDS =
      (a, b) -> compare(a.timestamp().toEpochMilli(), a.position(), b.timestamp().toEpochMilli(), b.position());

  /** Merges partitions, each given in offset order, into replay order. */
  public static List<LogRecord> merge(Collection<? extends List<LogRecord>> partitions) {
    record Cursor(List<LogRecord> records, int next) {
      LogRecord head() {
        return records.get(next);
      }
    }
    var heads = new PriorityQueue<Cursor>((x, y) -> RECORDS.compare(x.head(), y.head()));
    partitions.stream().filter(p -> !p.isEmpty()).forEach(p -> heads.add(new Cursor(p, 0)));
    var merged = new ArrayList<LogRecord>();
    while (!heads.isEmpty()) {
      Cursor cursor = heads.poll();
      merged.add(cursor.head());
      if (cursor.next() + 1 < cursor.records().size()) {
        heads.add(new Cursor(cursor.records(), cursor.next() + 1));
      }
    }
    return merged;
  }

  private static int rank(String topic) {
    int rank = Topics.ALL.indexOf(topic);
    return rank < 0 ? Topics.ALL.size() : rank;
  }
}
