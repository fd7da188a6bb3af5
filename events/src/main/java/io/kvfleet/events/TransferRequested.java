package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A router or scheduler asks for bytes to move between two registered regions. The source node
 * runs the transfer; events of a transfer are keyed by the source node.
 *
 * @param deadlineMillis wall-clock deadline (epoch millis) after which the transfer times out
 * @param checksum whether the completion must carry a checksum of the moved bytes
 */
public record TransferRequested(
    String transferId,
    String sourceNode,
    long sourceEpoch,
    String sourceRegion,
    String destinationNode,
    long destinationEpoch,
    String destinationRegion,
    TransferOp op,
    List<ByteRange> ranges,
    long deadlineMillis,
    boolean checksum)
    implements FleetEvent {
  public TransferRequested {
    requireNonNull(transferId, "transferId must not be null");
    requireNonNull(sourceNode, "sourceNode must not be null");
    requireNonNull(sourceRegion, "sourceRegion must not be null");
    requireNonNull(destinationNode, "destinationNode must not be null");
    requireNonNull(destinationRegion, "destinationRegion must not be null");
    requireNonNull(op, "op must not be null");
    ranges = List.copyOf(requireNonNull(ranges, "ranges must not be null"));
    Checks.positiveEpoch(sourceEpoch);
    Checks.positiveEpoch(destinationEpoch);
  }

  /** Total bytes the transfer moves. */
  public long totalBytes() {
    return ranges.stream().mapToLong(ByteRange::length).sum();
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
