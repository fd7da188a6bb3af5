package io.kvfleet.control.dataplane;

import io.kvfleet.engine.Capability;
import io.kvfleet.engine.Diagnosis;
import io.kvfleet.engine.RegistrationFailure;
import io.kvfleet.engine.RegistrationOutcome;
import io.kvfleet.engine.RegistrationResult;
import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSkipped;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.RegistrationFailed;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns the engine's outcome values into events. The engine knows nothing of events; this is the
 * one place the two vocabularies meet (reason names are the wire's reason codes).
 */
public final class EngineEvents {
  private EngineEvents() {}

  /** The engine's remediation for a registration reason code; empty for a code it does not know. */
  public static String remediation(String reason) {
    for (RegistrationFailure failure : RegistrationFailure.values()) {
      if (failure.name().equals(reason)) {
        return failure.remediation();
      }
    }
    return "";
  }

  static BackendCapability capability(Capability c) {
    return new BackendCapability(c.backend(), c.available(), c.version(),
        c.memoryTypes().stream().map(t -> MemoryType.valueOf(t.name())).toList(), c.transports(),
        c.detail());
  }

  /**
   * One event per backend outcome, in the engine's order. A null or empty entry is one skip. When
   * some backend took the region, refusals by backends that never handle its memory type and
   * skips by unavailable backends are left out (the join event's capabilities already say so);
   * when none took it, the operator needs every reason, so every outcome is published, unless
   * backends refused it as a duplicate: then only those refusals are.
   */
  static List<FleetEvent> registration(String nodeId, long epoch, RegionSpec region, RegistrationResult result) {
    List<FleetEvent> events = new ArrayList<>();
    if (!result.registered() && duplicate(result)) {
      // Held already: the refusals of the backends that hold it are the answer; the others' reasons
      // were given when it was first registered.
      for (RegistrationOutcome outcome : result.outcomes()) {
        if (outcome instanceof RegistrationOutcome.Failed f && f.reason() == RegistrationFailure.DUPLICATE_REGISTRATION) {
          events.add(failed(nodeId, epoch, region, f.backend(), f.diagnosis(), f.capability()));
        }
      }
      return events;
    }
    for (RegistrationOutcome outcome : result.outcomes()) {
      switch (outcome) {
        case RegistrationOutcome.Registered r ->
            events.add(new RegionRegistered(nodeId, epoch, region, r.backend(), r.remoteKey().toBase64()));
        case RegistrationOutcome.Failed f -> {
          if (!(result.registered() && f.reason() == RegistrationFailure.MEMORY_TYPE_UNSUPPORTED)) {
            events.add(failed(nodeId, epoch, region, f.backend(), f.diagnosis(), f.capability()));
          }
        }
        case RegistrationOutcome.Skipped s when s.reason().nothingToRegister() -> {
          if (events.stream().noneMatch(e -> e instanceof RegionSkipped)) {
            events.add(new RegionSkipped(nodeId, epoch, region, s.reason().name()));
          }
        }
        case RegistrationOutcome.Skipped s -> {
          if (!result.registered()) {
            events.add(failed(nodeId, epoch, region, s.backend(), s.diagnosis(), s.capability()));
          }
        }
      }
    }
    return events;
  }

  private static boolean duplicate(RegistrationResult result) {
    return result.outcomes().stream().anyMatch(o ->
        o instanceof RegistrationOutcome.Failed f && f.reason() == RegistrationFailure.DUPLICATE_REGISTRATION);
  }

  private static RegistrationFailed failed(String nodeId, long epoch, RegionSpec region, String backend,
      Diagnosis diagnosis, Capability capability) {
    return new RegistrationFailed(nodeId, epoch, region, backend, diagnosis.reason().name(), diagnosis.detail(),
        diagnosis.nativeCode(), diagnosis.nativeMessage(), capability(capability), diagnosis.remediation());
  }
}
