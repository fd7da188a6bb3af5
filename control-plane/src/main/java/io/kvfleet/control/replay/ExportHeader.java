package io.kvfleet.control.replay;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The first line of an export file.
 *
 * @param format always {@link #FORMAT}
 * @param version the file format version, {@link #VERSION}
 * @param created when the export was written
 * @param bootstrapServers the Kafka it was read from
 * @param topics the topics it covers
 * @param order how the records are ordered: {@link #ORDER}
 * @param filter what was left out, in words ({@code none} for a whole log)
 * @param startOffsets per partition, the first offset read
 * @param endOffsets per partition, the offset after the last one read
 */
public record ExportHeader(
    String format,
    int version,
    Instant created,
    String bootstrapServers,
    List<String> topics,
    String order,
    String filter,
    SortedMap<String, Long> startOffsets,
    SortedMap<String, Long> endOffsets) {
  /** The format name every export starts with. */
  public static final String FORMAT = "kvfleet-export";
  /** The version this build writes and reads. */
  public static final int VERSION = 1;
  /** The record order of every export: replay order, see {@code io.kvfleet.events.replay.ReplayOrder}. */
  public static final String ORDER = "merge of partitions by (timestamp, topic, partition, offset)";

  public ExportHeader {
    requireNonNull(format, "format must not be null");
    requireNonNull(created, "created must not be null");
    requireNonNull(bootstrapServers, "bootstrapServers must not be null");
    topics = List.copyOf(requireNonNull(topics, "topics must not be null"));
    requireNonNull(order, "order must not be null");
    requireNonNull(filter, "filter must not be null");
    startOffsets = offsets(startOffsets, "startOffsets");
    endOffsets = offsets(endOffsets, "endOffsets");
    for (var end : endOffsets.entrySet()) {
      long start = startOffsets.getOrDefault(end.getKey(), 0L);
      if (start > end.getValue()) {
        throw new IllegalArgumentException(end.getKey() + " starts at offset " + start + " after its end "
            + end.getValue());
      }
    }
  }

  /** A copy; a partition without an offset would fail every reader that sums them (the progress bar). */
  private static TreeMap<String, Long> offsets(SortedMap<String, Long> offsets, String what) {
    var copy = new TreeMap<>(requireNonNull(offsets, what + " must not be null"));
    if (copy.containsValue(null)) {
      throw new IllegalArgumentException(what + " must map every partition to an offset");
    }
    copy.forEach((partition, offset) -> {
      if (offset < 0) {
        throw new IllegalArgumentException(what + ": " + partition + " at offset " + offset + ", before any record");
      }
    });
    return copy;
  }
}
