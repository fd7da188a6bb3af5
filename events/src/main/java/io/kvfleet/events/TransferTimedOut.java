package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

/** A transfer passed its deadline without a terminal outcome; the coordinator ended it. */
public record TransferTimedOut(String transferId, String sourceNode, long deadlineMillis)
    implements FleetEvent {
  public TransferTimedOut {
    requireNonNull(transferId, "transferId must not be null");
    requireNonNull(sourceNode, "sourceNode must not be null");
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
