package io.kvfleet.control.agent;

import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSkipped;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.RegistrationDecision;
import io.kvfleet.events.RegistrationFailed;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
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
        .filter(region -> outcomes.stream().noneMatch(e -> takes(e, region, backend -> true)))
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
    return Optional.of(new RegistrationDecision(nodeId, epoch, component.name(), name(),
        what + "; " + consequence(component)));
  }

  /**
   * The component's entries that other hosts cannot reach: no backend that moves bytes between
   * hosts registered them (the cuda backend alone reaches this host only), and none was skipped.
   */
  static List<RegionSpec> unreachable(Component component, List<FleetEvent> outcomes,
      Predicate<String> crossHost) {
    return component.regions().stream()
        .filter(region -> outcomes.stream().noneMatch(e -> takes(e, region, crossHost)))
        .toList();
  }

  /** Whether the node must stop. */
  public boolean stopsNode() {
    return this == FAIL_NODE;
  }

  private String consequence(Component component) {
    if (this == FALLBACK_STAGED && component.memoryType() != MemoryType.VRAM) {
      return "the node keeps serving; these " + component.memoryType() + " entries are not staged (the staged path"
          + " copies device memory only), so their transfers will be rejected";
    }
    return switch (this) {
      case FAIL_NODE -> "the node stops";
      case FALLBACK_STAGED -> "the node keeps serving; these entries are offered through the staged path"
          + " (device memory copied through host buffers registered with ucx): see their 'staged' outcome";
      case CONTINUE_WITHOUT -> "the node keeps serving without this component; its transfers will be rejected";
    };
  }

  /** Whether {@code event} skipped the region or registered it with a backend {@code backends} accepts. */
  private static boolean takes(FleetEvent event, RegionSpec region, Predicate<String> backends) {
    return switch (event) {
      case RegionRegistered r -> r.region().regionId().equals(region.regionId()) && backends.test(r.backend());
      case RegionSkipped s -> s.region().regionId().equals(region.regionId());
      default -> false;
    };
  }
}
