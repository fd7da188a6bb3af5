package io.kvfleet.engine.spi;

import static java.util.Objects.requireNonNull;

import io.kvfleet.engine.Diagnosis;

/** A backend's answer to one registration. */
public sealed interface RegisterResult {

  /** Registered; the region is the backend's handle to it. */
  record Accepted(BackendRegion region) implements RegisterResult {
    public Accepted {
      requireNonNull(region, "region must not be null");
    }
  }

  /** Refused, with the diagnosis. */
  record Refused(Diagnosis diagnosis) implements RegisterResult {
    public Refused {
      requireNonNull(diagnosis, "diagnosis must not be null");
    }
  }
}
