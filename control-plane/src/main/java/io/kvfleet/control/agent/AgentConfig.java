package io.kvfleet.control.agent;

import static java.util.Objects.requireNonNull;

import io.kvfleet.events.RegionSpec;
import java.time.Duration;
import java.util.List;

/**
 * How one node agent runs.
 *
 * @param epoch this incarnation's epoch: greater than any earlier incarnation's
 * @param regions buffers to register at start, in order
 * @param heartbeat how often to heartbeat; the lease promised is three heartbeats
 */
public record AgentConfig(
    String nodeId, long epoch, String host, List<RegionSpec> regions, Duration heartbeat) {
  public AgentConfig {
    requireNonNull(nodeId, "nodeId must not be null");
    requireNonNull(host, "host must not be null");
    regions = List.copyOf(requireNonNull(regions, "regions must not be null"));
    requireNonNull(heartbeat, "heartbeat must not be null");
  }

  /** The lease each heartbeat promises. */
  public Duration lease() {
    return heartbeat.multipliedBy(3);
  }

  /** A new epoch from the wall clock: later starts of a node get larger epochs. */
  public static long newEpoch() {
    return System.currentTimeMillis();
  }
}
