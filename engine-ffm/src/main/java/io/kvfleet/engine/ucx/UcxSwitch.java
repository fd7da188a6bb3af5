package io.kvfleet.engine.ucx;

import java.util.Locale;
import java.util.Optional;

/**
 * Whether this process runs without UCX on purpose: {@code KVFLEET_UCX=off} (or the system property
 * {@code kvfleet.ucx}) keeps the UCX backend from loading, as on a node where UCX is not installed.
 */
public final class UcxSwitch {
  /** The environment variable. */
  public static final String ENV = "KVFLEET_UCX";
  /** The system property, read first. */
  public static final String PROPERTY = "kvfleet.ucx";

  private UcxSwitch() {}

  /** Why UCX is not to be loaded in this process, or empty when it is. */
  public static Optional<String> offReason() {
    String property = System.getProperty(PROPERTY);
    return property != null ? offReason(PROPERTY, property) : offReason(ENV, System.getenv(ENV));
  }

  /** Why UCX is not to be loaded when {@code name} is {@code value} (null: not set, UCX on). */
  static Optional<String> offReason(String name, String value) {
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "on" -> Optional.empty();
      case "off" -> Optional.of("turned off (" + name + "=off): this process runs without UCX on purpose");
      default -> Optional.of(name + "=" + value + " is neither on nor off; UCX left off until it is one of them");
    };
  }
}
