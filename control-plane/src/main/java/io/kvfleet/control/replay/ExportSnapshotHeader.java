package io.kvfleet.control.replay;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The first line of a snapshot kept beside an export: the state after the export's first
 * {@code records} records, folded in the export's order, and where the records after them start.
 *
 * @param exportCreated the {@code created} of the export's header: a snapshot belongs to one export
 * @param records how many records of the export the state folded (the first, in file order)
 * @param maxTimestamp the latest Kafka timestamp among them, epoch milliseconds: a replay
 *     {@code --until T} may start here only if {@code maxTimestamp <= T}, since it folds every record
 *     before the first one after T
 * @param nextOffsets per partition, the offset after the last record folded (for people and checks)
 * @param frame the compressed frame the next records are read from, and how many of its records to skip
 * @param skip records of that frame that the state already folded
 * @param keepEndedMillis how long the fold kept an ended transfer, in log time; -1 for ever
 * @param applied envelopes the state folded, duplicates included
 * @param hash the state's {@code StateHash}; the restored state must have it
 * @param stateBytes the length of the state's binary form, after the header line
 * @param stateCrc32c the CRC-32C of those bytes
 * @param following the export's frames after {@code frame}, up to the one where the next snapshot's
 *     records start: where the records after this snapshot can be read in parallel, a frame per
 *     thread; empty in a snapshot written without them (its records are then read as one stream)
 * @param headerCrc32c the CRC-32C of this line as written with {@code headerCrc32c} 0: the state's
 *     CRC-32C does not cover the line, and the export can check a frame's offset, not its record
 *     count, the record count or the latest timestamp
 */
public record ExportSnapshotHeader(
    String format,
    int version,
    Instant exportCreated,
    long records,
    long maxTimestamp,
    SortedMap<String, Long> nextOffsets,
    ExportWriter.Frame frame,
    long skip,
    long keepEndedMillis,
    long applied,
    String hash,
    long stateBytes,
    long stateCrc32c,
    List<ExportWriter.Frame> following,
    long headerCrc32c) {
  /** The format name of every such snapshot. */
  public static final String FORMAT = "kvfleet-export-snapshot";
  /** The version this build writes and reads. */
  public static final int VERSION = 2;

  public ExportSnapshotHeader {
    requireNonNull(format, "format must not be null");
    requireNonNull(exportCreated, "exportCreated must not be null");
    nextOffsets = new TreeMap<>(requireNonNull(nextOffsets, "nextOffsets must not be null"));
    requireNonNull(frame, "frame must not be null");
    requireNonNull(hash, "hash must not be null");
    following = following == null ? List.of() : List.copyOf(following);
  }

  /** This header with {@code headerCrc32c}. */
  public ExportSnapshotHeader withHeaderCrc32c(long crc) {
    return new ExportSnapshotHeader(format, version, exportCreated, records, maxTimestamp, nextOffsets, frame, skip,
        keepEndedMillis, applied, hash, stateBytes, stateCrc32c, following, crc);
  }

  /** The CRC-32C of this header's line written with {@code headerCrc32c} 0 (what {@code headerCrc32c} must be). */
  public long lineCrc32c() {
    var crc = new java.util.zip.CRC32C();
    crc.update(io.kvfleet.control.ReplayJson.line(withHeaderCrc32c(0)).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    return crc.getValue();
  }

  /** The frame the records after the state start in, then the frames that follow it (the parallel tail). */
  public List<ExportWriter.Frame> tailFrames() {
    var all = new ArrayList<ExportWriter.Frame>();
    all.add(frame);
    all.addAll(following);
    return all;
  }
}
