package io.kvfleet.control.kafka;

import io.kvfleet.events.OpaqueEvent;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.replay.LogRecord;
import io.kvfleet.events.replay.Placement;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.common.utils.Utils;

/**
 * Where a transfer record belongs: the partition its Kafka key, its source node, hashes to. Neither the
 * key nor the partition is signed, so a signed record copied elsewhere still verifies; every reader
 * that verifies (a coordinator, a replay with {@code --trust}) refuses such a copy alike, so that their
 * folds agree.
 */
public final class TransferPlacement {
  private TransferPlacement() {}

  /** The partition Kafka's default partitioner (murmur2) gives a record keyed {@code key}. */
  public static int partitionOf(String key, int partitions) {
    return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
  }

  /**
   * Why a record read from partition {@code partition} of {@code topic} under Kafka key {@code key} (null:
   * none) is not where its writer put it, if it is not: a transfer record without a key, in another
   * partition than its key maps to, or keyed by another node than the one it is about. Empty off the
   * transfers topic, for a tombstone, and while the transfers topic's partition count is not known
   * ({@code partitions <= 0}).
   */
  public static Optional<String> misplaced(String topic, int partition, String key, Decoded value, int partitions) {
    if (partitions <= 0 || !Topics.TRANSFERS.equals(topic) || value == null) {
      return Optional.empty();
    }
    if (key == null) {
      return Optional.of("no key in transfers partition " + partition + " (a transfer record is keyed by its source"
          + " node)");
    }
    if (partitionOf(key, partitions) != partition) {
      return Optional.of("key '" + key + "' in transfers partition " + partition + ", but murmur2 of it picks "
          + partitionOf(key, partitions));
    }
    if (value instanceof Decoded.Event e && !(e.envelope().data() instanceof OpaqueEvent)
        && !key.equals(Topics.keyOf(e.envelope()))) {
      return Optional.of("keyed '" + key + "', but about node '" + Topics.keyOf(e.envelope()) + "'");
    }
    return Optional.empty();
  }

  /** The check a verifying replay makes, over a transfers topic of {@code partitions} partitions (0: none). */
  public static Placement of(int partitions) {
    return partitions <= 0 ? Placement.ANYWHERE : (LogRecord r) -> misplaced(r.position().topic(),
        r.position().partition(), r.key().isEmpty() ? null : r.key(), r.value(), partitions);
  }
}
