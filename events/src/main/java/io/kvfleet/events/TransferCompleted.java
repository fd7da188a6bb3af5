package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

/**
 * The source node moved every byte of a transfer.
 *
 * @param path how the bytes went (e.g. {@code ucx/tcp}, {@code host/memcpy}, {@code cuda/staged})
 * @param checksum CRC-32C of the moved bytes as hex when asked for, else empty
 */
public record TransferCompleted(
    String transferId, String sourceNode, long bytes, long durationNanos, String path, String checksum)
    implements FleetEvent {
  public TransferCompleted {
    requireNonNull(transferId, "transferId must not be null");
    requireNonNull(sourceNode, "sourceNode must not be null");
    requireNonNull(path, "path must not be null");
    requireNonNull(checksum, "checksum must not be null (use \"\")");
    Checks.notNegative("bytes", bytes);
    Checks.notNegative("durationNanos", durationNanos);
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
