package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

/** A dispatched transfer did not complete: reason code, native code and detail. */
public record TransferFailed(
    String transferId, String sourceNode, String reason, long nativeCode, String detail)
    implements FleetEvent {
  public TransferFailed {
    Checks.id("transferId", transferId);
    Checks.id("sourceNode", sourceNode);
    requireNonNull(reason, "reason must not be null");
    requireNonNull(detail, "detail must not be null (use \"\")");
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
