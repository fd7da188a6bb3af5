package io.kvfleet.control.coordinator;

import static java.util.Objects.requireNonNull;

import io.kvfleet.events.replay.FoldOrder;
import java.time.Instant;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The first line of a snapshot file: what the state bytes after it cover and how to check them.
 *
 * @param applied envelopes the state folded, duplicates included
 * @param hash the state's {@code StateHash.of(state)}; a restored state must have it
 * @param topicIds Kafka's id of each topic the state folded (a topic recreated under its name, or the
 *     same name on another cluster, has another): a coordinator resumes only from a snapshot of its own log
 * @param nextOffsets per partition, the offset after the last record the state covers
 * @param order the order the coordinator folded those records in (so a replay can reproduce the hash)
 * @param stateBytes how many bytes of state follow the header line
 * @param stateCrc32c CRC-32C of those bytes
 */
public record SnapshotHeader(
    String format,
    int version,
    String coordinatorId,
    Instant created,
    long applied,
    String hash,
    SortedMap<String, String> topicIds,
    SortedMap<String, Long> nextOffsets,
    FoldOrder order,
    long stateBytes,
    long stateCrc32c) {
  /** The format name of every snapshot file. */
  public static final String FORMAT = "kvfleet-snapshot";
  /** The file format version this build writes and reads. */
  public static final int VERSION = 2;

  public SnapshotHeader {
    requireNonNull(format, "format must not be null");
    requireNonNull(coordinatorId, "coordinatorId must not be null");
    requireNonNull(created, "created must not be null");
    requireNonNull(hash, "hash must not be null");
    topicIds = new TreeMap<>(requireNonNull(topicIds, "topicIds must not be null"));
    nextOffsets = new TreeMap<>(requireNonNull(nextOffsets, "nextOffsets must not be null"));
    requireNonNull(order, "order must not be null");
  }
}
