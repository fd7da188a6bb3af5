package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

/** The coordinator refused a request before dispatch, with a reason code and the detail behind it. */
public record TransferRejected(String transferId, String sourceNode, String reason, String detail)
    implements FleetEvent {
  public TransferRejected {
    requireNonNull(transferId, "transferId must not be null");
    requireNonNull(sourceNode, "sourceNode must not be null");
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
