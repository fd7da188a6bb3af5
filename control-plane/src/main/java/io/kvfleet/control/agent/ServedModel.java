package io.kvfleet.control.agent;

import static java.util.Objects.requireNonNull;

import io.kvfleet.events.ModelLayoutDeclared;
import java.util.List;

/** A model a node serves: its components' buffers to register and the layout to declare with them. */
public record ServedModel(String modelId, int tpRank, int tpSize, List<ServedComponent> components) {
  public ServedModel {
    requireNonNull(modelId, "modelId must not be null");
    Component.requireShort(modelId, "modelId");
    components = List.copyOf(requireNonNull(components, "components must not be null"));
    if (tpSize < 1 || tpRank < 0 || tpRank >= tpSize) {
      throw new IllegalArgumentException("tensor-parallel rank " + tpRank + " of size " + tpSize + " is not a rank");
    }
  }

  /** The buffers to register, one component each. */
  public List<Component> buffers() {
    return components.stream().map(ServedComponent::buffers).toList();
  }

  /** The layout event of {@code nodeId} at {@code epoch}. */
  public ModelLayoutDeclared declaration(String nodeId, long epoch) {
    return new ModelLayoutDeclared(nodeId, epoch, modelId, tpRank, tpSize,
        components.stream().map(ServedComponent::layout).toList());
  }
}
