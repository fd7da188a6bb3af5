package io.kvfleet.engine;

import static java.util.Objects.requireNonNull;

/**
 * What one backend did with one region. Expected failures are outcomes, never exceptions; the
 * control plane turns each into an event.
 */
public sealed interface RegistrationOutcome {

  String backend();

  RegionRequest request();

  /** The backend holds the region; peers reach it with {@code registration.remoteKey()}. */
  record Registered(String backend, RegionRequest request, Registration registration)
      implements RegistrationOutcome {
    public Registered {
      requireNonNull(backend, "backend must not be null");
      requireNonNull(request, "request must not be null");
      requireNonNull(registration, "registration must not be null");
    }

    /** The packed key and range to publish. */
    public RemoteKey remoteKey() {
      return registration.remoteKey();
    }
  }

  /** The backend refused the region; the diagnosis says why and what to change. */
  record Failed(String backend, RegionRequest request, Diagnosis diagnosis, Capability capability)
      implements RegistrationOutcome {
    public Failed {
      requireNonNull(backend, "backend must not be null");
      requireNonNull(request, "request must not be null");
      requireNonNull(diagnosis, "diagnosis must not be null");
      requireNonNull(capability, "capability must not be null");
    }

    public RegistrationFailure reason() {
      return diagnosis.reason();
    }

    public long nativeCode() {
      return diagnosis.nativeCode();
    }

    public String nativeMessage() {
      return diagnosis.nativeMessage();
    }

    public String remediation() {
      return diagnosis.remediation();
    }

    public String detail() {
      return diagnosis.detail();
    }
  }

  /**
   * Nothing was attempted: a null or empty entry ({@link RegistrationFailure#NULL_ADDRESS}, {@link RegistrationFailure#ZERO_LENGTH}) or an
   * unavailable backend ({@link RegistrationFailure#BACKEND_UNAVAILABLE}).
   */
  record Skipped(String backend, RegionRequest request, Diagnosis diagnosis, Capability capability)
      implements RegistrationOutcome {
    public Skipped {
      requireNonNull(backend, "backend must not be null");
      requireNonNull(request, "request must not be null");
      requireNonNull(diagnosis, "diagnosis must not be null");
      requireNonNull(capability, "capability must not be null");
    }

    public RegistrationFailure reason() {
      return diagnosis.reason();
    }
  }
}
