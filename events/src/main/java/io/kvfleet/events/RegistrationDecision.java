package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

/**
 * What a node's registration policy decided after a component failed to register: fail the node,
 * fall back to a staged path, or continue without the component. The decision is itself audited.
 *
 * @param component the component that failed (e.g. {@code state_data})
 * @param policy the configured policy ({@code FAIL_NODE}, {@code FALLBACK_STAGED}, {@code CONTINUE_WITHOUT})
 * @param outcome what happened, in words an operator reads
 */
public record RegistrationDecision(
    String nodeId, long epoch, String component, String policy, String outcome)
    implements FleetEvent {
  public RegistrationDecision {
    Checks.id("nodeId", nodeId);
    requireNonNull(component, "component must not be null");
    requireNonNull(policy, "policy must not be null");
    requireNonNull(outcome, "outcome must not be null");
    Checks.positiveEpoch(epoch);
  }

  @Override
  public String subject() {
    return component;
  }
}
