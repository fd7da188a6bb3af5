package io.kvfleet.control.coordinator;

import io.kvfleet.events.replay.LogPosition;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Events a coordinator needed that the log no longer holds: per partition, those between where its
 * fold starts (offset 0, or past a snapshot) and where the partition now begins (a retention that
 * deleted them, or {@code deleteRecords}). Its state lacks what they said: joins, registrations,
 * requests.
 *
 * @param byPartition missing events per partition key ({@code topic-partition}); only gaps
 */
public record LogGap(SortedMap<String, Long> byPartition) {
  public static final LogGap NONE = new LogGap(new TreeMap<>());

  public LogGap {
    byPartition = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(byPartition));
  }

  /**
   * The gap between {@code beginnings} (each partition's first offset the log still holds) and
   * {@code nextToFold} (the next offset the fold needs; a partition it has not read starts at 0).
   */
  public static LogGap of(Map<String, Long> beginnings, Map<String, Long> nextToFold) {
    var gaps = new TreeMap<String, Long>();
    beginnings.forEach((partition, beginning) -> {
      long missing = beginning - nextToFold.getOrDefault(partition, 0L);
      if (missing > 0) {
        gaps.put(partition, missing);
      }
    });
    return new LogGap(gaps);
  }

  /** {@link #of} for Kafka's answer, keyed by topic and partition. */
  static LogGap ofKafka(Map<io.vertx.kafka.client.common.TopicPartition, Long> beginnings, Map<String, Long> next) {
    var keyed = new TreeMap<String, Long>();
    beginnings.forEach((tp, offset) -> keyed.put(LogPosition.partitionKey(tp.getTopic(), tp.getPartition()), offset));
    return of(keyed, next);
  }

  /** Every missing event, over all partitions. */
  public long total() {
    return byPartition.values().stream().mapToLong(Long::longValue).sum();
  }
}
