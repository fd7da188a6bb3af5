package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The source node moved every byte of a transfer.
 *
 * @param path how the bytes went (e.g. {@code ucx/tcp}, {@code host/memcpy}, {@code cuda/staged})
 * @param checksum CRC-32C of the moved bytes as hex when asked for, else empty
 * @param parts what a request transfer moved per component (schema version 2); empty otherwise
 */
public record TransferCompleted(
    String transferId, String sourceNode, long bytes, long durationNanos, String path, String checksum,
    List<PartOutcome> parts)
    implements FleetEvent {
  public TransferCompleted {
    Checks.id("transferId", transferId);
    Checks.id("sourceNode", sourceNode);
    requireNonNull(path, "path must not be null");
    requireNonNull(checksum, "checksum must not be null (use \"\")");
    Checks.notNegative("bytes", bytes);
    Checks.notNegative("durationNanos", durationNanos);
    parts = List.copyOf(requireNonNull(parts, "parts must not be null"));
  }

  /** The completion of a single-region transfer (schema version 1). */
  public TransferCompleted(
      String transferId, String sourceNode, long bytes, long durationNanos, String path, String checksum) {
    this(transferId, sourceNode, bytes, durationNanos, path, checksum, List.of());
  }

  /** Version 1 without parts, so older readers keep reading it; 2 with them. */
  @Override
  public int schemaVersion() {
    return parts.isEmpty() ? 1 : 2;
  }

  @Override
  public String nodeId() {
    return sourceNode;
  }

  @Override
  public String subject() {
    return transferId;
  }
}
