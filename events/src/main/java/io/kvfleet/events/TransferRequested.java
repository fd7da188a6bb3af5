package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A router or scheduler asks for bytes to move between two registered regions, or (a request
 * transfer, schema version 2) for one inference request's pages and slots of every component of
 * the model, which the coordinator expands over both nodes' layouts. The source node runs the
 * transfer; events of a transfer are keyed by the source node.
 *
 * @param deadlineMillis wall-clock deadline (epoch millis) after which the transfer times out
 * @param checksum whether the completion must carry a checksum of the moved bytes
 * @param requestId the inference request a request transfer moves; empty for the single-region form
 * @param parts per component, the source and destination indices; empty for the single-region form
 * @param recomputed components the destination recomputes itself, so the request leaves them out
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
    boolean checksum,
    String requestId,
    List<RequestPart> parts,
    List<String> recomputed)
    implements FleetEvent {
  public TransferRequested {
    Checks.id("transferId", transferId);
    Checks.id("sourceNode", sourceNode);
    Checks.id("sourceRegion", sourceRegion);
    Checks.id("destinationNode", destinationNode);
    Checks.id("destinationRegion", destinationRegion);
    requireNonNull(op, "op must not be null");
    ranges = List.copyOf(requireNonNull(ranges, "ranges must not be null"));
    Checks.id("requestId", requestId); // "" when none
    parts = List.copyOf(requireNonNull(parts, "parts must not be null"));
    recomputed = List.copyOf(requireNonNull(recomputed, "recomputed must not be null"));
    Checks.positiveEpoch(sourceEpoch);
    Checks.positiveEpoch(destinationEpoch);
    long total = 0;
    for (ByteRange range : ranges) {
      if (range.length() > Long.MAX_VALUE - total) {
        // totalBytes() wrapped: a short completion could then match what was asked
        throw new IllegalArgumentException("its ranges add up to more than " + Long.MAX_VALUE + " bytes");
      }
      total += range.length();
    }
  }

  /** The single-region form (schema version 1). */
  public TransferRequested(String transferId, String sourceNode, long sourceEpoch, String sourceRegion,
      String destinationNode, long destinationEpoch, String destinationRegion, TransferOp op,
      List<ByteRange> ranges, long deadlineMillis, boolean checksum) {
    this(transferId, sourceNode, sourceEpoch, sourceRegion, destinationNode, destinationEpoch,
        destinationRegion, op, ranges, deadlineMillis, checksum, "", List.of(), List.of());
  }

  /** A request transfer: one inference request's parts, expanded by the coordinator. */
  public static TransferRequested ofRequest(String transferId, String requestId, String sourceNode,
      long sourceEpoch, String destinationNode, long destinationEpoch, List<RequestPart> parts,
      List<String> recomputed, long deadlineMillis, boolean checksum) {
    return new TransferRequested(transferId, sourceNode, sourceEpoch, "", destinationNode, destinationEpoch, "",
        TransferOp.WRITE, List.of(), deadlineMillis, checksum, requestId, parts, recomputed);
  }

  /** Whether this is a request transfer (parts per component) rather than the single-region form. */
  public boolean requestForm() {
    return !parts.isEmpty() || !recomputed.isEmpty() || !requestId.isEmpty();
  }

  /** Version 1 for the single-region form, so older readers keep reading it; 2 for a request transfer. */
  @Override
  public int schemaVersion() {
    return requestForm() ? 2 : 1;
  }

  /** Total bytes the transfer moves; for a request transfer the bytes its ranges name (none). */
  public long totalBytes() {
    long total = 0; // a loop, not a stream: the fold asks this of every completion
    for (ByteRange range : ranges) {
      total += range.length();
    }
    return total;
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
