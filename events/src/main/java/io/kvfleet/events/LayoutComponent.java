package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * One component of a node's model layout: the KV cache, one state component of a hybrid model
 * (conv, SSM, sliding-window state) or the aux buffers, as a list of equally cut buffers.
 *
 * @param name the component's name, what a request transfer names (e.g. {@code kv}, {@code conv})
 * @param buffers how many buffers (layers) the component has on this node
 * @param itemLength bytes of one page (KV) or one slot (state, aux) in every buffer
 * @param pageSize tokens per page for KV, 1 for state and aux slots
 * @param dtype the element type as the server names it (e.g. {@code bfloat16}, {@code float32})
 * @param layers the model layer each buffer holds, one per buffer
 * @param regionIds the registered region of each buffer, one per buffer
 */
public record LayoutComponent(
    String name,
    RegionKind kind,
    MemoryType memoryType,
    int buffers,
    long itemLength,
    int pageSize,
    String dtype,
    List<Integer> layers,
    List<String> regionIds) {
  public LayoutComponent {
    requireNonNull(name, "name must not be null");
    requireNonNull(kind, "kind must not be null");
    requireNonNull(memoryType, "memoryType must not be null");
    requireNonNull(dtype, "dtype must not be null");
    layers = List.copyOf(requireNonNull(layers, "layers must not be null"));
    regionIds = List.copyOf(requireNonNull(regionIds, "regionIds must not be null"));
    if (name.isEmpty()) {
      throw new IllegalArgumentException("a layout component needs a name");
    }
    if (buffers < 0 || layers.size() != buffers || regionIds.size() != buffers) {
      throw new IllegalArgumentException(name + ": " + buffers + " buffers need as many layers and region ids,"
          + " got " + layers.size() + " layers and " + regionIds.size() + " region ids");
    }
    if (itemLength <= 0) {
      throw new IllegalArgumentException(name + ": item length must be positive: " + itemLength);
    }
    if (pageSize <= 0) {
      throw new IllegalArgumentException(name + ": page size must be positive: " + pageSize);
    }
  }
}
