package io.kvfleet.control.coordinator;

import io.vertx.kafka.client.common.TopicPartition;
import java.util.HashMap;
import java.util.Map;

/**
 * Tracks reading up to the end offsets found at start: until then the coordinator only folds.
 * Records may arrive before the end offsets do, so positions are kept from the first record on.
 */
final class CatchUp {
  private final Map<String, Long> next = new HashMap<>();
  private Map<String, Long> ends;
  private boolean announced;

  /** Sets the end offsets the log had when the coordinator started. */
  void endsAre(Map<TopicPartition, Long> endOffsets) {
    ends = new HashMap<>();
    endOffsets.forEach((tp, end) -> ends.put(key(tp.getTopic(), tp.getPartition()), end));
  }

  /** Notes that the record at {@code offset} was folded. */
  void advance(String topic, int partition, long offset) {
    next.merge(key(topic, partition), offset + 1, Math::max);
  }

  /** Whether every record before {@code endOffsets} was folded. */
  boolean hasRead(Map<TopicPartition, Long> endOffsets) {
    return endOffsets.entrySet().stream()
        .allMatch(e -> next.getOrDefault(key(e.getKey().getTopic(), e.getKey().getPartition()), 0L) >= e.getValue());
  }

  boolean isDone() {
    return ends != null
        && ends.entrySet().stream().allMatch(e -> next.getOrDefault(e.getKey(), 0L) >= e.getValue());
  }

  /** True once, the first time it is asked after catching up. */
  boolean markAnnounced() {
    if (announced || !isDone()) {
      return false;
    }
    announced = true;
    return true;
  }

  private static String key(String topic, int partition) {
    return topic + "-" + partition;
  }
}
