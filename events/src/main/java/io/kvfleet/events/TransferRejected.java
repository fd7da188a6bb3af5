package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

/** The coordinator refused a request before dispatch, with a reason code and the detail behind it. */
public record TransferRejected(String transferId, String sourceNode, String reason, String detail)
    implements FleetEvent {
  public TransferRejected {
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
