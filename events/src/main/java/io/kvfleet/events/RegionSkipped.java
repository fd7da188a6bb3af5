package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

/** A region was not registered on purpose (zero address or zero length), recorded instead of dropped. */
public record RegionSkipped(String nodeId, long epoch, RegionSpec region, String reason)
    implements FleetEvent {
  public RegionSkipped {
    Checks.id("nodeId", nodeId);
    requireNonNull(region, "region must not be null");
    requireNonNull(reason, "reason must not be null");
    Checks.positiveEpoch(epoch);
  }

  @Override
  public String subject() {
    return region.regionId();
  }
}
