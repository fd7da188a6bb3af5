package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

/** The coordinator {@code coordinatorId} validated a request and handed it to the source node's agent. */
public record TransferDispatched(String transferId, String sourceNode, String coordinatorId)
    implements FleetEvent {
  public TransferDispatched {
    requireNonNull(transferId, "transferId must not be null");
    requireNonNull(sourceNode, "sourceNode must not be null");
    requireNonNull(coordinatorId, "coordinatorId must not be null");
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
