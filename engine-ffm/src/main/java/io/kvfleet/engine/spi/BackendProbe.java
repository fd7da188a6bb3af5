package io.kvfleet.engine.spi;

import static java.util.Objects.requireNonNull;

import io.kvfleet.engine.Capability;

/** What a provider found: a ready backend, or a capability saying why there is none. */
public sealed interface BackendProbe {

  /** The backend opened. */
  record Ready(Backend backend) implements BackendProbe {
    public Ready {
      requireNonNull(backend, "backend must not be null");
    }
  }

  /** The backend is unavailable; {@code capability.detail()} says why. */
  record Unavailable(Capability capability) implements BackendProbe {
    public Unavailable {
      requireNonNull(capability, "capability must not be null");
      if (capability.available()) {
        throw new IllegalArgumentException("an unavailable backend's capability says available");
      }
    }
  }
}
