package io.kvfleet.events;

/** A transfer passed its deadline without a terminal outcome; the coordinator ended it. */
public record TransferTimedOut(String transferId, String sourceNode, long deadlineMillis)
    implements FleetEvent {
  public TransferTimedOut {
    Checks.id("transferId", transferId);
    Checks.id("sourceNode", sourceNode);
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
