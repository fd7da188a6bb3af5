package io.kvfleet.events.state;

import static java.util.Objects.requireNonNull;

import io.kvfleet.events.BackendCapability;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.List;

/**
 * The current incarnation of a node as the log tells it.
 *
 * @param joinedAt envelope time of its {@code PeerJoined}
 * @param lastHeartbeat envelope time of its last heartbeat (its join until the first one)
 * @param leaseMillis the lease its last heartbeat promised, 0 before the first heartbeat
 */
public record PeerView(
    String nodeId,
    long epoch,
    PeerStatus status,
    String host,
    String transportAddress,
    List<BackendCapability> capabilities,
    Instant joinedAt,
    Instant lastHeartbeat,
    long leaseMillis) {
  public PeerView {
    requireNonNull(nodeId, "nodeId must not be null");
    requireNonNull(status, "status must not be null");
    requireNonNull(host, "host must not be null");
    requireNonNull(transportAddress, "transportAddress must not be null");
    capabilities = List.copyOf(requireNonNull(capabilities, "capabilities must not be null"));
    requireNonNull(joinedAt, "joinedAt must not be null");
    requireNonNull(lastHeartbeat, "lastHeartbeat must not be null");
  }

  /** When the lease of the last heartbeat runs out; the coordinator compares it with its clock. */
  public Instant leaseExpiresAt() {
    try {
      return lastHeartbeat.plusMillis(leaseMillis);
    } catch (DateTimeException | ArithmeticException e) {
      return Instant.MAX;
    }
  }

  PeerView withStatus(PeerStatus newStatus) {
    return new PeerView(
        nodeId, epoch, newStatus, host, transportAddress, capabilities, joinedAt, lastHeartbeat, leaseMillis);
  }

  PeerView withHeartbeat(Instant at, long lease) {
    return new PeerView(nodeId, epoch, status, host, transportAddress, capabilities, joinedAt, at, lease);
  }
}
