package io.kvfleet.control.agent;

import static java.util.Objects.requireNonNull;

import io.kvfleet.events.LayoutComponent;
import io.kvfleet.events.RegionSpec;
import java.util.List;
import java.util.stream.IntStream;

/**
 * One component of a served model: its buffers as the worker hands them over, and what the layout
 * says of them. Every buffer of a component has the same item length.
 *
 * @param pageSize tokens per page for KV, 1 for state and aux slots
 * @param layers the model layer of each buffer; empty means buffer i holds layer i
 */
public record ServedComponent(Component buffers, String dtype, int pageSize, List<Integer> layers) {
  public ServedComponent {
    requireNonNull(buffers, "buffers must not be null");
    requireNonNull(dtype, "dtype must not be null (use \"\")");
    Component.requireShort(dtype, buffers.name() + ": dtype");
    layers = List.copyOf(requireNonNull(layers, "layers must not be null"));
    int n = buffers.addresses().size();
    if (!layers.isEmpty() && layers.size() != n) {
      throw new IllegalArgumentException(buffers.name() + ": " + layers.size() + " layers for " + n
          + " buffers; give one per buffer or none");
    }
    if (buffers.itemLengths().isEmpty() && n > 0) {
      throw new IllegalArgumentException(buffers.name() + ": a layout component needs the item length of its buffers");
    }
    if (buffers.itemLengths().stream().distinct().count() > 1) {
      throw new IllegalArgumentException(buffers.name() + ": item lengths differ between buffers "
          + buffers.itemLengths().stream().distinct().toList() + "; a component is cut alike in every buffer");
    }
    if (pageSize < 1) {
      throw new IllegalArgumentException(buffers.name() + ": page size must be positive: " + pageSize);
    }
  }

  /** The component as the layout event declares it. */
  public LayoutComponent layout() {
    int n = buffers.addresses().size();
    long item = n == 0 ? 1 : buffers.itemLengths().getFirst();
    List<Integer> held = layers.isEmpty() ? IntStream.range(0, n).boxed().toList() : layers;
    return new LayoutComponent(buffers.name(), buffers.kind(), buffers.memoryType(), n, item, pageSize, dtype, held,
        buffers.regions().stream().map(RegionSpec::regionId).toList());
  }
}
