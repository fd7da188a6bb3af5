package io.kvfleet.control.ops;

import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegistrationFailed;

/**
 * One registration failure as an operator reads it: what, where, what the backend found and said,
 * what it could do, and what to do about it.
 */
record Diagnosis(String nodeId, long epoch, String regionId, String component, RegionKind kind, MemoryType memoryType,
    int device, long length, String backend, String reason, String diagnosis, long nativeCode, String nativeMessage,
    BackendCapability capability, String remediation) {
  static Diagnosis of(RegistrationFailed f) {
    var r = f.region();
    String said = f.nativeMessage().isEmpty() ? "" : " (native " + f.nativeCode() + ": " + f.nativeMessage() + ")";
    String diagnosis = f.backend() + " could not register " + r.kind() + " " + r.memoryType() + " region "
        + r.regionId() + " on device " + r.device() + ": " + f.reason()
        + (f.detail().isEmpty() ? "" : ", " + f.detail()) + said
        + "; it can register " + f.capability().memoryTypes() + " over " + f.capability().transports();
    return new Diagnosis(f.nodeId(), f.epoch(), r.regionId(), r.component(), r.kind(), r.memoryType(), r.device(),
        r.length(), f.backend(), f.reason(), diagnosis, f.nativeCode(), f.nativeMessage(), f.capability(),
        f.remediation());
  }
}
