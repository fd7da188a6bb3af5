package io.kvfleet.control.coordinator;

import io.vertx.kafka.client.common.TopicPartition;
import java.util.HashMap;
import java.util.Map;

/** Tracks reading up to the end offsets found at start: until then the coordinator only folds. */
final class CatchUp {
  private final Map<String, Long> remaining = new HashMap<>();
  private boolean announced;

  CatchUp(Map<TopicPartition, Long> endOffsets) {
    endOffsets.forEach((tp, end) -> {
      if (end > 0) {
        remaining.put(key(tp.getTopic(), tp.getPartition()), end);
      }
    });
  }

  /** Notes that the record at {@code offset} was folded. */
  void advance(String topic, int partition, long offset) {
    String key = key(topic, partition);
    Long end = remaining.get(key);
    if (end != null && offset + 1 >= end) {
      remaining.remove(key);
    }
  }

  boolean isDone() {
    return remaining.isEmpty();
  }

  /** True once, the first time it is asked after catching up. */
  boolean markAnnounced() {
    if (announced) {
      return false;
    }
    announced = true;
    return true;
  }

  private static String key(String topic, int partition) {
    return topic + "-" + partition;
  }
}
