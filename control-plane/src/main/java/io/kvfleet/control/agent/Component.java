package io.kvfleet.control.agent;

import static java.util.Objects.requireNonNull;

import io.kvfleet.events.MemoryType;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * A group of buffers as an inference worker hands them over, shaped like sglang's
 * {@code kv_data_ptrs}/{@code state_data_ptrs}: parallel lists of addresses, lengths and item
 * lengths. Entry {@code i} becomes region {@code <name>-<i>}; a zero address or length is kept (and
 * recorded as skipped), never dropped.
 *
 * @param itemLengths per-entry item (page) length; empty means "not paged" for every entry
 * @param handles per-entry handle when the memory is not in the agent's process: {@code shm:<name>}
 *     (POSIX shared memory) or {@code cuda-ipc:<base64>}; empty means every entry is an address
 */
public record Component(
    String name,
    RegionKind kind,
    MemoryType memoryType,
    int device,
    List<Long> addresses,
    List<Long> lengths,
    List<Long> itemLengths,
    List<String> handles) {
  public Component {
    requireNonNull(name, "name must not be null");
    requireNonNull(kind, "kind must not be null");
    requireNonNull(memoryType, "memoryType must not be null");
    addresses = List.copyOf(requireNonNull(addresses, "addresses must not be null"));
    lengths = List.copyOf(requireNonNull(lengths, "lengths must not be null"));
    itemLengths = List.copyOf(requireNonNull(itemLengths, "itemLengths must not be null"));
    handles = List.copyOf(requireNonNull(handles, "handles must not be null"));
    requireShort(name, "a component's name");
    handles.forEach(h -> requireShort(h, name + ": a handle"));
    if (addresses.size() != lengths.size()) {
      throw new IllegalArgumentException(name + ": " + addresses.size() + " addresses but "
          + lengths.size() + " lengths; the lists must be parallel");
    }
    if (!itemLengths.isEmpty() && itemLengths.size() != addresses.size()) {
      throw new IllegalArgumentException(name + ": " + itemLengths.size() + " item lengths for "
          + addresses.size() + " entries; give one per entry or none");
    }
    if (!handles.isEmpty() && handles.size() != addresses.size()) {
      throw new IllegalArgumentException(name + ": " + handles.size() + " handles for "
          + addresses.size() + " entries; give one per entry or none");
    }
  }

  /** The longest name, handle, model id or dtype a worker may give, in characters. */
  public static final int LONGEST_NAME = 256;

  /**
   * Refuses a name longer than {@link #LONGEST_NAME}: every registration outcome carries it in an event,
   * and one event over Kafka's record limit never reaches the log (the agent then reported it pending
   * for ever, and could not join again after a fence).
   */
  static void requireShort(String value, String what) {
    if (value != null && value.length() > LONGEST_NAME) {
      throw new IllegalArgumentException(what + " is " + value.length() + " characters long; at most "
          + LONGEST_NAME + " are taken");
    }
  }

  /** A component whose entries are addresses in the agent's own process. */
  public Component(String name, RegionKind kind, MemoryType memoryType, int device,
      List<Long> addresses, List<Long> lengths, List<Long> itemLengths) {
    this(name, kind, memoryType, device, addresses, lengths, itemLengths, List.of());
  }

  /** The handle of entry {@code i}, or empty when it is an address. */
  public String handle(int i) {
    return handles.isEmpty() ? "" : handles.get(i);
  }

  /** The component's entries as regions, in order. */
  public List<RegionSpec> regions() {
    List<RegionSpec> regions = new ArrayList<>();
    for (int i = 0; i < addresses.size(); i++) {
      long item = itemLengths.isEmpty() ? 0 : itemLengths.get(i);
      regions.add(new RegionSpec(name + "-" + i, kind, memoryType, memoryType == MemoryType.VRAM ? device : -1,
          addresses.get(i), lengths.get(i), item, name, i));
    }
    return regions;
  }
}
