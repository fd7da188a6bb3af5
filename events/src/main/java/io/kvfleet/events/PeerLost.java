package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

/**
 * The coordinator declared {@code nodeId} at {@code epoch} dead (missed lease). Every in-flight
 * transfer touching it ends with a {@link TransferFailed}.
 *
 * @param lastSeenMillis wall-clock time of its last heartbeat (epoch millis)
 */
public record PeerLost(String nodeId, long epoch, String reason, long lastSeenMillis)
    implements FleetEvent {
  public PeerLost {
    Checks.id("nodeId", nodeId);
    requireNonNull(reason, "reason must not be null");
    Checks.positiveEpoch(epoch);
  }

  @Override
  public String subject() {
    return nodeId;
  }
}
