package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A backend refused a region, with its diagnosis: the reason code, the native call's code and
 * message, what the backend can do, and what the operator should change.
 *
 * @param reason a reason code (see {@link ReasonCodes})
 * @param detail what the backend found, with the address, size and call (e.g. "this UCX has no
 *     CUDA memory domain; transports: tcp, sysv, posix, cma")
 * @param nativeCode the native library's status code, 0 when none applies
 * @param nativeMessage the native library's own message (e.g. the CUDA error string), may be empty
 * @param capability the backend's capabilities when it refused (memory types, transports)
 * @param remediation what to change so the registration succeeds
 */
public record RegistrationFailed(
    String nodeId,
    long epoch,
    RegionSpec region,
    String backend,
    String reason,
    String detail,
    long nativeCode,
    String nativeMessage,
    BackendCapability capability,
    String remediation)
    implements FleetEvent {
  public RegistrationFailed {
    Checks.id("nodeId", nodeId);
    requireNonNull(region, "region must not be null");
    requireNonNull(backend, "backend must not be null");
    requireNonNull(reason, "reason must not be null");
    requireNonNull(detail, "detail must not be null (use \"\")");
    requireNonNull(nativeMessage, "nativeMessage must not be null (use \"\")");
    requireNonNull(capability, "capability must not be null");
    requireNonNull(remediation, "remediation must not be null (use \"\")");
    Checks.positiveEpoch(epoch);
  }

  /** The transports the refusing backend did have. */
  public List<String> transportsPresent() {
    return capability.transports();
  }

  @Override
  public String subject() {
    return region.regionId();
  }
}
