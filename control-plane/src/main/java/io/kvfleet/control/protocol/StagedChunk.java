package io.kvfleet.control.protocol;

import static java.util.Objects.requireNonNull;

/**
 * One chunk of a staged transfer, as the source's agent asks the destination's agent to take it:
 * pull {@code length} bytes from the source's host buffer (over ucx) and land them in the
 * destination region's device memory at {@code destinationOffset}.
 *
 * @param sourceTransport the source node's ucx worker address (base64)
 * @param sourceKey the ucx remote key of the source's host buffer (its bounce buffer, or the
 *     region itself when it is host memory ucx registered)
 */
public record StagedChunk(
    String transferId,
    String sourceNode,
    String sourceTransport,
    String sourceKey,
    long sourceOffset,
    String destinationRegion,
    long destinationOffset,
    long length) {
  public StagedChunk {
    requireNonNull(transferId, "transferId must not be null");
    requireNonNull(sourceNode, "sourceNode must not be null");
    requireNonNull(sourceTransport, "sourceTransport must not be null");
    requireNonNull(sourceKey, "sourceKey must not be null");
    requireNonNull(destinationRegion, "destinationRegion must not be null");
    if (sourceOffset < 0 || destinationOffset < 0 || length <= 0) {
      throw new IllegalArgumentException("offsets must not be negative and length must be positive: source "
          + sourceOffset + ", destination " + destinationOffset + ", length " + length);
    }
  }
}
