package io.kvfleet.control.agent;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;

/**
 * How one node agent runs.
 *
 * @param epoch this incarnation's epoch: greater than any earlier incarnation's
 * @param components buffers to register at start, component by component, in order
 * @param policy what to do when a component cannot be registered
 * @param heartbeat how often to heartbeat; the lease promised is three heartbeats
 * @param httpPort the loopback port of the local registration API, 0 for a free one, -1 for none
 */
public record AgentConfig(
    String nodeId,
    long epoch,
    String host,
    List<Component> components,
    RegistrationPolicy policy,
    Duration heartbeat,
    int httpPort) {
  public AgentConfig {
    requireNonNull(nodeId, "nodeId must not be null");
    requireNonNull(host, "host must not be null");
    components = List.copyOf(requireNonNull(components, "components must not be null"));
    requireNonNull(policy, "policy must not be null");
    requireNonNull(heartbeat, "heartbeat must not be null");
  }

  /** An agent without the local HTTP API (its buffers come with the configuration). */
  public AgentConfig(String nodeId, long epoch, String host, List<Component> components,
      RegistrationPolicy policy, Duration heartbeat) {
    this(nodeId, epoch, host, components, policy, heartbeat, -1);
  }

  /** This configuration for the node's next incarnation, at {@code newEpoch}. */
  public AgentConfig withEpoch(long newEpoch) {
    return new AgentConfig(nodeId, newEpoch, host, components, policy, heartbeat, httpPort);
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
