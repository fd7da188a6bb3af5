package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

/** A region of {@code nodeId} at {@code epoch} was released by {@code backend}. */
public record RegionDeregistered(
    String nodeId, long epoch, String regionId, String backend, String reason)
    implements FleetEvent {
  public RegionDeregistered {
    Checks.id("nodeId", nodeId);
    Checks.id("regionId", regionId);
    requireNonNull(backend, "backend must not be null");
    requireNonNull(reason, "reason must not be null");
    Checks.positiveEpoch(epoch);
  }

  @Override
  public String subject() {
    return regionId;
  }
}
