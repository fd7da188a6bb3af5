package io.kvfleet.control.coordinator;

import io.kvfleet.events.codec.Decoded;
import io.kvfleet.control.kafka.TransferPlacement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Which transfers a coordinator decides for. Alone it owns them all. In a group, it owns the
 * transfer partitions Kafka assigned it, each from the moment it has re-read that partition up to
 * the end it had at assignment: a transfer's events all share its source node's partition, so by
 * then the coordinator knows what the previous owner dispatched and ended. Liveness duties for a
 * node go to the owner of the partition the node's key falls in. Owned by the event loop.
 */
final class Ownership {
  private final int partitions;
  private final boolean grouped;
  private final Map<Integer, Long> catchingUp = new HashMap<>();
  private final Map<Integer, Long> read = new HashMap<>();
  private final TreeSet<Integer> ready = new TreeSet<>();

  private Ownership(int partitions, boolean grouped) {
    this.partitions = partitions;
    this.grouped = grouped;
  }

  /** A lone coordinator: it owns every transfer. */
  static Ownership whole() {
    return new Ownership(0, false);
  }

  /** A lone coordinator over a transfers topic of {@code partitions} partitions (which tells a misrouted request). */
  static Ownership whole(int partitions) {
    return new Ownership(partitions, false);
  }

  /** A member of a group before it knows the transfers topic: it owns nothing. */
  static Ownership none() {
    return new Ownership(0, true);
  }

  /** A member of a group, over a transfers topic of {@code partitions} partitions. */
  static Ownership group(int partitions) {
    return new Ownership(partitions, true);
  }

  /** Whether this coordinator decides for transfers from, and watches the lease of, {@code nodeId}. */
  boolean owns(String nodeId) {
    return !grouped || partitions > 0 && ready.contains(partitionOf(nodeId, partitions));
  }

  /**
   * Whether this coordinator answers what is in partition {@code partition} of either fleet topic
   * (a misrouted request, a record it cannot fold): the owner of that transfer partition does.
   */
  boolean ownsPartition(int partition) {
    return !grouped || ready.contains(partition);
  }

  /** Whether a transfer record about {@code sourceNode} sits in another partition than its key hashes to. */
  boolean misrouted(int partition, String sourceNode) {
    return partitions > 0 && partition >= 0 && partitionOf(sourceNode, partitions) != partition;
  }

  /** {@link TransferPlacement#misplaced} over this coordinator's transfers topic (empty while its partitions are unknown). */
  java.util.Optional<String> misplaced(String topic, int partition, String key, Decoded value) {
    return TransferPlacement.misplaced(topic, partition, key, value, partitions);
  }

  /** Whether {@code nodeId}'s transfers are in partition {@code partition}. */
  boolean holds(int partition, String nodeId) {
    return !grouped || partitions > 0 && partitionOf(nodeId, partitions) == partition;
  }

  /** Kafka assigned {@code partition}, whose end was {@code end}; true when it is ready at once. */
  boolean assigned(int partition, long end) {
    if (read.getOrDefault(partition, 0L) >= end) {
      ready.add(partition);
      return true;
    }
    catchingUp.put(partition, end);
    return false;
  }

  /** The record at {@code offset} of {@code partition} was read; true when that made it ready. */
  boolean advance(int partition, long offset) {
    read.merge(partition, offset + 1, Math::max);
    Long end = catchingUp.get(partition);
    if (end != null && offset + 1 >= end) {
      catchingUp.remove(partition);
      ready.add(partition);
      return true;
    }
    return false;
  }

  void revoked(int partition) {
    catchingUp.remove(partition);
    ready.remove(partition);
  }

  /** The partitions this coordinator decides for; empty for a lone coordinator, which owns all. */
  List<Integer> owned() {
    return List.copyOf(ready);
  }

  /** The partition Kafka's default partitioner puts {@code key} in. */
  static int partitionOf(String key, int partitions) {
    return TransferPlacement.partitionOf(key, partitions);
  }
}
