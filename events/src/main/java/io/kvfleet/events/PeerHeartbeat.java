package io.kvfleet.events;

/** A node agent is alive at {@code epoch} and promises its next heartbeat within {@code leaseMillis}. */
public record PeerHeartbeat(String nodeId, long epoch, long leaseMillis) implements FleetEvent {
  public PeerHeartbeat {
    Checks.id("nodeId", nodeId);
    Checks.positiveEpoch(epoch);
    if (leaseMillis <= 0) {
      throw new IllegalArgumentException("leaseMillis must be positive: " + leaseMillis);
    }
  }

  @Override
  public String subject() {
    return nodeId;
  }
}
