package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * The model layout a node serves at an epoch, declared with its registrations: what a request
 * transfer to or from it must move, and how each component is cut. A later declaration at the same
 * epoch replaces the earlier one; a new epoch forgets it.
 *
 * @param tpRank this node's tensor-parallel rank, 0 &lt;= rank &lt; tpSize
 * @param tpSize the tensor-parallel size of the model on this side of the fleet
 */
public record ModelLayoutDeclared(
    String nodeId, long epoch, String modelId, int tpRank, int tpSize, List<LayoutComponent> components)
    implements FleetEvent {
  public ModelLayoutDeclared {
    Checks.id("nodeId", nodeId);
    requireNonNull(modelId, "modelId must not be null");
    components = List.copyOf(requireNonNull(components, "components must not be null"));
    Checks.positiveEpoch(epoch);
    if (tpSize < 1 || tpRank < 0 || tpRank >= tpSize) {
      throw new IllegalArgumentException("tensor-parallel rank " + tpRank + " of size " + tpSize
          + " is not a rank of that size");
    }
    if (components.stream().map(LayoutComponent::name).distinct().count() != components.size()) {
      throw new IllegalArgumentException("a layout names each component once");
    }
  }

  /** The component named {@code name}, if the layout has one. */
  public Optional<LayoutComponent> component(String name) {
    return components.stream().filter(c -> c.name().equals(name)).findFirst();
  }

  @Override
  public String subject() {
    return nodeId;
  }
}
