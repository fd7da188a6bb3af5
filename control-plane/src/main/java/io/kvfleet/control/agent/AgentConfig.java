package io.kvfleet.control.agent;

import static java.util.Objects.requireNonNull;

import io.kvfleet.events.trust.Signing;
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
 * @param signing the key it signs events (and h15order's orders) with and the trust file it verifies against
 */
public record AgentConfig(
    String nodeId,
    long epoch,
    String host,
    List<Component> components,
    RegistrationPolicy policy,
    Duration heartbeat,
    int httpPort,
    Signing signing) {
  public AgentConfig {
    requireNonNull(nodeId, "nodeId must not be null");
    requireNonNull(host, "host must not be null");
    components = List.copyOf(requireNonNull(components, "components must not be null"));
    requireNonNull(policy, "policy must not be null");
    requireNonNull(heartbeat, "heartbeat must not be null");
    requireNonNull(signing, "signing must not be null (Signing.off() for none)");
  }

  /** An agent that neither signs nor verifies. */
  public AgentConfig(String nodeId, long epoch, String host, List<Component> components,
      RegistrationPolicy policy, Duration heartbeat, int httpPort) {
    this(nodeId, epoch, host, components, policy, heartbeat, httpPort, Signing.off());
  }

  /** An agent without the local HTTP API (its buffers come with the configuration). */
  public AgentConfig(String nodeId, long epoch, String host, List<Component> components,
      RegistrationPolicy policy, Duration heartbeat) {
    this(nodeId, epoch, host, components, policy, heartbeat, -1, Signing.off());
  }

  /** This configuration for the node's next incarnation, at {@code newEpoch}. */
  public AgentConfig withEpoch(long newEpoch) {
    return new AgentConfig(nodeId, newEpoch, host, components, policy, heartbeat, httpPort, signing);
  }

  /** This configuration signing and verifying as {@code signing} says. */
  public AgentConfig withSigning(Signing newSigning) {
    return new AgentConfig(nodeId, epoch, host, components, policy, heartbeat, httpPort, newSigning);
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
