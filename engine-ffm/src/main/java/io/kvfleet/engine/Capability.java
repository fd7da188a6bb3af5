package io.kvfleet.engine;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What one backend on this node can do, as probed when the engine opened.
 *
 * @param backend backend name ({@code ucx}, {@code host}, {@code cuda})
 * @param available whether it loaded and initialised
 * @param version native library version, empty when unknown
 * @param memoryTypes the memory types it registers
 * @param transports the transports it offers (e.g. {@code tcp}, {@code sysv}, {@code posix})
 * @param crossHost whether it moves bytes between hosts
 * @param detail why it is unavailable or limited (e.g. "libucp.so.0 not found"); empty when fine
 */
public record Capability(
    String backend,
    boolean available,
    String version,
    List<MemoryType> memoryTypes,
    List<String> transports,
    boolean crossHost,
    String detail) {

  public Capability {
    requireNonNull(backend, "backend must not be null");
    requireNonNull(version, "version must not be null (use \"\")");
    memoryTypes = List.copyOf(requireNonNull(memoryTypes, "memoryTypes must not be null"));
    transports = List.copyOf(requireNonNull(transports, "transports must not be null"));
    requireNonNull(detail, "detail must not be null (use \"\")");
  }

  /** A backend that did not load, and why. */
  public static Capability unavailable(String backend, String detail) {
    return new Capability(backend, false, "", List.of(), List.of(), false, detail);
  }

  /** Whether it registers {@code type}. */
  public boolean supports(MemoryType type) {
    return available && memoryTypes.contains(type);
  }

  /** {@code ucx 1.13.1 available: DRAM; transports tcp, sysv (detail)}. */
  public String summary() {
    if (!available) {
      return backend + " unavailable: " + detail;
    }
    return backend
        + (version.isEmpty() ? "" : " " + version)
        + " available: memory types "
        + memoryTypes
        + ", transports "
        + String.join(", ", transports)
        + (crossHost ? ", cross-host" : ", this host only")
        + (detail.isEmpty() ? "" : " (" + detail + ")");
  }
}
