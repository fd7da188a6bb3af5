package io.kvfleet.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The live registrations of one engine, per backend and memory type, ordered by address so that
 * an overlap is found in O(log n), and by region id. The node's one registry of regions: the
 * duplicate rule ({@link Registrar}) and the control plane's look-ups by id both read it. Guarded
 * by the engine's lock.
 */
final class RegionRegistry {
  private final Map<String, TreeMap<Long, Registration>> byBackend = new HashMap<>();
  /** Region id to its live registrations (one per backend for a named region; a plain label may repeat). */
  private final Map<String, List<Registration>> byId = new HashMap<>();

  /** The live registrations of {@code regionId}, one per backend that holds it (for a named region). */
  List<Registration> withId(String regionId) {
    return List.copyOf(byId.getOrDefault(regionId, List.of()));
  }

  /** The live registration that overlaps {@code [address, address + length)}, if any. */
  Optional<Registration> overlapping(String backend, MemoryType type, long address, long length) {
    TreeMap<Long, Registration> live = byBackend.get(key(backend, type));
    if (live == null) {
      return Optional.empty();
    }
    var floor = live.floorEntry(address + length - 1);
    if (floor == null) {
      return Optional.empty();
    }
    Registration candidate = floor.getValue();
    return candidate.address() + candidate.length() > address
        ? Optional.of(candidate)
        : Optional.empty();
  }

  void add(Registration registration) {
    byBackend
        .computeIfAbsent(key(registration.backend(), registration.request().memoryType()),
            k -> new TreeMap<>())
        .put(registration.address(), registration);
    byId.computeIfAbsent(registration.request().regionId(), id -> new ArrayList<>()).add(registration);
  }

  void remove(Registration registration) {
    TreeMap<Long, Registration> live =
        byBackend.get(key(registration.backend(), registration.request().memoryType()));
    if (live != null) {
      live.remove(registration.address(), registration);
    }
    var named = byId.get(registration.request().regionId());
    if (named != null && named.remove(registration) && named.isEmpty()) {
      byId.remove(registration.request().regionId());
    }
  }

  /** Live registrations of any backend inside {@code [address, address + length)}. */
  int countWithin(long address, long length) {
    int count = 0;
    for (TreeMap<Long, Registration> live : byBackend.values()) {
      count += live.subMap(address, true, address + length, false).size();
    }
    return count;
  }

  List<Registration> all() {
    List<Registration> all = new ArrayList<>();
    byBackend.values().forEach(live -> all.addAll(live.values()));
    return all;
  }

  private static String key(String backend, MemoryType type) {
    return backend + "/" + type;
  }
}
