package io.kvfleet.control.agent;

import io.kvfleet.events.MemoryType;
import io.kvfleet.events.RegionKind;
import java.util.List;
import java.util.Objects;

/** The body of {@code POST /v1/components}: sglang-shaped buffer lists, optional fields defaulted. */
record ComponentsRequest(List<Entry> components) {
  ComponentsRequest {
    Objects.requireNonNull(components, "components must be given");
  }

  /** One component as JSON; {@code itemLengths} and {@code handles} may be left out. */
  record Entry(String name, RegionKind kind, MemoryType memoryType, Integer device, List<Long> addresses,
      List<Long> lengths, List<Long> itemLengths, List<String> handles) {}

  /** A {@code null} entry of a number list is 0: a null address or a zero length, recorded as skipped. */
  private static List<Long> zeroForNull(List<Long> values) {
    return values == null ? null : values.stream().map(v -> v == null ? 0L : v).toList();
  }

  /**
   * The components, with {@code addresses} zero where only handles were given; a {@code null} in
   * {@code handles} is an entry without a handle (its address, or a null entry when only handles
   * were given, recorded as skipped NULL_ADDRESS).
   */
  List<Component> toComponents() {
    return components.stream().map(e -> new Component(e.name(), e.kind(), e.memoryType(),
        e.device() == null ? -1 : e.device(),
        e.addresses() == null && e.handles() != null
            ? e.handles().stream().map(h -> 0L).toList() : zeroForNull(e.addresses()),
        zeroForNull(e.lengths()),
        e.itemLengths() == null ? List.of() : e.itemLengths(),
        e.handles() == null ? List.of() : e.handles().stream().map(h -> h == null ? "" : h).toList())).toList();
  }
}
