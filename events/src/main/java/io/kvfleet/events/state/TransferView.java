package io.kvfleet.events.state;

import static java.util.Objects.requireNonNull;

import io.kvfleet.events.TransferRequested;
import java.time.Instant;

/**
 * A transfer: its request and where it stands.
 *
 * @param reason the reason code it ended with; empty while in flight and when completed
 * @param detail the failure or rejection detail, or the path a completed transfer took
 * @param bytes the bytes a completed transfer moved, else 0
 * @param requestedAt envelope time of the request
 * @param updatedAt envelope time of its latest accepted event
 * @param requestEventId envelope id of the request: what tells a request from a later one that
 *     reuses the id of a transfer the fold has forgotten
 * @param endedBy producer of the event that ended it; empty while in flight
 */
public record TransferView(
    TransferRequested request,
    TransferStatus status,
    String reason,
    String detail,
    long bytes,
    Instant requestedAt,
    Instant updatedAt,
    String requestEventId,
    String endedBy) {
  public TransferView {
    requireNonNull(request, "request must not be null");
    requireNonNull(status, "status must not be null");
    requireNonNull(reason, "reason must not be null");
    requireNonNull(detail, "detail must not be null");
    requireNonNull(requestedAt, "requestedAt must not be null");
    requireNonNull(updatedAt, "updatedAt must not be null");
    requireNonNull(requestEventId, "requestEventId must not be null");
    requireNonNull(endedBy, "endedBy must not be null");
  }

  /** The transfer id. */
  public String transferId() {
    return request.transferId();
  }

  /** Whether the transfer reads from or writes to {@code nodeId}. */
  public boolean touches(String nodeId) {
    return request.sourceNode().equals(nodeId) || request.destinationNode().equals(nodeId);
  }

  /**
   * Whether it may have been dispatched: not while requested, never when rejected (a rejection after a dispatch is
   * a violation the fold drops). A time-out may have come before a dispatch; an ending after it changes nothing.
   */
  public boolean wasDispatched() {
    return status != TransferStatus.REQUESTED && status != TransferStatus.REJECTED;
  }

  static TransferView requested(TransferRequested request, Instant at, String eventId) {
    return new TransferView(request, TransferStatus.REQUESTED, "", "", 0, at, at, eventId, "");
  }

  TransferView dispatched(Instant at) {
    return new TransferView(request, TransferStatus.DISPATCHED, "", "", 0, requestedAt, at, requestEventId, "");
  }

  TransferView ended(TransferStatus end, String endReason, String endDetail, long moved, Instant at, String by) {
    return new TransferView(request, end, endReason, endDetail, moved, requestedAt, at, requestEventId, by);
  }
}
