package io.kvfleet.control.demo;

import io.kvfleet.events.trust.FleetKey;
import io.kvfleet.events.trust.KeyBinding;
import io.kvfleet.events.trust.Role;
import io.kvfleet.events.trust.Signing;
import io.kvfleet.events.trust.TrustFile;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The demo's keys for {@code demo --signed}: one fresh key per producer, in memory, all in one trust file. */
public final class DemoKeys {
  private final Map<String, FleetKey> keys = new HashMap<>();
  private TrustFile trust = TrustFile.empty();

  private DemoKeys() {}

  /** Keys for the demo's coordinator, nodes and router. */
  public static DemoKeys make() {
    var made = new DemoKeys();
    made.add(DemoFleet.COORDINATOR, Role.COORDINATOR);
    made.add(DemoFleet.ROUTER, Role.ROUTER);
    DemoFleet.NODES.forEach(node -> made.add(node, Role.NODE));
    return made;
  }

  private void add(String id, Role role) {
    FleetKey key = FleetKey.generate(id);
    keys.put(id, key);
    trust = trust.with(new KeyBinding(id, key.publicKey(), role, Set.of(id), role == Role.NODE ? Set.of(id) : Set.of()));
  }

  /** What {@code producer} signs with, and the trust file every reader verifies against. */
  Signing of(String producer) {
    return Signing.of(keys.get(producer), trust);
  }

  /** The producers that have keys. */
  List<String> producers() {
    return List.copyOf(keys.keySet());
  }
}
