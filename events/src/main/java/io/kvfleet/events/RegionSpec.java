package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

/**
 * A buffer as the inference worker described it: what it is, where it lives and how it is cut.
 *
 * @param regionId unique per node (e.g. {@code kv-L0}, {@code state-conv-3})
 * @param kind KV, STATE or AUX
 * @param memoryType DRAM or VRAM
 * @param device GPU ordinal for VRAM, -1 for host memory
 * @param address address in the owning process (0 when given by handle)
 * @param length bytes
 * @param itemSize page size for KV, item length for state tensors, 0 when not paged
 * @param component the group the buffer came in (e.g. {@code kv_data}, {@code state_data}); may be empty
 * @param index the buffer's index within its component (sglang's list index), -1 when not in a list
 */
public record RegionSpec(
    String regionId,
    RegionKind kind,
    MemoryType memoryType,
    int device,
    long address,
    long length,
    long itemSize,
    String component,
    int index) {
  public RegionSpec {
    Checks.id("regionId", regionId);
    requireNonNull(kind, "kind must not be null");
    requireNonNull(memoryType, "memoryType must not be null");
    requireNonNull(component, "component must not be null (use \"\")");
    if (length < 0 || itemSize < 0) {
      throw new IllegalArgumentException(
          "length and itemSize must not be negative: " + length + ", " + itemSize);
    }
  }
}
