package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

/** A node agent at {@code epoch} shut down cleanly. */
public record PeerLeft(String nodeId, long epoch, String reason) implements FleetEvent {
  public PeerLeft {
    Checks.id("nodeId", nodeId);
    requireNonNull(reason, "reason must not be null");
    Checks.positiveEpoch(epoch);
  }

  @Override
  public String subject() {
    return nodeId;
  }
}
