package io.kvfleet.events.trust;

import java.util.Locale;
import java.util.Optional;

/** What a key's holder is in the fleet, which decides the events it may write. */
public enum Role {
  NODE,
  COORDINATOR,
  ROUTER;

  /** The name as the trust file and the CLI spell it. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The role a trust file or CLI names, if it names one. */
  public static Optional<Role> fromWire(String name) {
    for (Role role : values()) {
      if (role.wireName().equals(name)) {
        return Optional.of(role);
      }
    }
    return Optional.empty();
  }
}
