package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

/**
 * A backend accepted a region of {@code nodeId} at {@code epoch}.
 *
 * @param remoteKey what a peer needs to reach the region (e.g. base64 packed UCX rkey); may be empty
 */
public record RegionRegistered(
    String nodeId, long epoch, RegionSpec region, String backend, String remoteKey)
    implements FleetEvent {
  public RegionRegistered {
    Checks.id("nodeId", nodeId);
    requireNonNull(region, "region must not be null");
    requireNonNull(backend, "backend must not be null");
    requireNonNull(remoteKey, "remoteKey must not be null (use \"\")");
    Checks.positiveEpoch(epoch);
  }

  @Override
  public String subject() {
    return region.regionId();
  }
}
