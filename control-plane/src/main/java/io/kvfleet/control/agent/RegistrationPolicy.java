package io.kvfleet.control.agent;

import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSkipped;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.RegistrationDecision;
import io.kvfleet.events.RegistrationFailed;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** What a node does when a component's buffers cannot all be registered (configurable per node). */
public enum RegistrationPolicy {
  /** Stop the node, as sglang does today, but with the diagnosis on record. */
  FAIL_NODE,
  /** Keep the node; the component is to be staged through host memory instead of registered. */
  FALLBACK_STAGED,
  /** Keep the node and serve everything else; the component is not transferable. */
  CONTINUE_WITHOUT;

  /**
   * The decision for one component given its regions' outcome events, or empty when every entry
   * was registered by some backend or deliberately skipped.
   */
  public Optional<RegistrationDecision> decide(
      String nodeId, long epoch, Component component, List<FleetEvent> outcomes) {
    List<RegionSpec> unregistered = component.regions().stream()
        .filter(region -> outcomes.stream().noneMatch(e -> takes(e, region)))
        .toList();
    if (unregistered.isEmpty()) {
      return Optional.empty();
    }
    String reasons = outcomes.stream()
        .filter(e -> e instanceof RegistrationFailed)
        .map(e -> (RegistrationFailed) e)
        .map(f -> f.backend() + ": " + f.reason())
        .distinct()
        .collect(Collectors.joining(", "));
    String what = unregistered.size() + " of " + component.regions().size() + " " + component.name()
        + " entries (" + component.memoryType() + ") not registered [" + reasons + "]";
    return Optional.of(new RegistrationDecision(nodeId, epoch, component.name(), name(), what + "; " + consequence()));
  }

  /** Whether the node must stop. */
  public boolean stopsNode() {
    return this == FAIL_NODE;
  }

  private String consequence() {
    return switch (this) {
      case FAIL_NODE -> "the node stops";
      case FALLBACK_STAGED -> "the node keeps serving; this component is not registered with a transport and"
          + " must be staged through host memory";
      case CONTINUE_WITHOUT -> "the node keeps serving without this component; its transfers will be rejected";
    };
  }

  private static boolean takes(FleetEvent event, RegionSpec region) {
    return switch (event) {
      case RegionRegistered r -> r.region().regionId().equals(region.regionId());
      case RegionSkipped s -> s.region().regionId().equals(region.regionId());
      default -> false;
    };
  }
}
