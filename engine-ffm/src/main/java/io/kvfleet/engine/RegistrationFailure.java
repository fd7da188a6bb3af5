package io.kvfleet.engine;

/**
 * Why a backend did not register a region. The names are the control plane's reason codes, so
 * {@code reason.name()} is what goes on the wire.
 */
public enum RegistrationFailure {
  /** No backend on this node registers this memory type at all. */
  MEMORY_TYPE_UNSUPPORTED(
      "register the memory type with a backend that supports it (for VRAM: a CUDA-enabled UCX or"
          + " the cuda backend), or stage the data through host memory"),
  /** The backend handles the type in general but this build has no memory domain for it. */
  NO_MEMORY_DOMAIN(
      "use a UCX built with CUDA support (ucx_info -d must list the cuda_copy and cuda_ipc memory"
          + " domains), or stage the data through host memory"),
  /** The address is not mapped, not writable, or the length runs past the mapping. */
  INVALID_ADDRESS(
      "pass the address and length of a live, writable mapping in the registering process (check"
          + " the pointer, the shared-memory name and the length)"),
  /**
   * The range is mapped but is not memory the engine allocated for registration (or a {@code shm:}
   * object or device handle it mapped itself): the agent's own heap, code, stacks or libraries.
   */
  NOT_AGENT_MEMORY(
      "register buffers the node agent allocated for the purpose, or hand the memory over as a"
          + " shm:/<name> object or a device handle; an address elsewhere in the agent's process is"
          + " never registered"),
  /** The backend can only register memory it can grant to peers (host: its own allocations, shm:). */
  NOT_GRANTABLE(
      "allocate the buffer from the engine with the host backend, or hand it over as a shm:/<name>"
          + " object; another backend may have registered it already"),
  /** A null address (or an empty shared-memory name or device handle): nothing to register. */
  NULL_ADDRESS("give the entry its buffer's address or handle, or drop it; a null entry is recorded as skipped"),
  /** A zero length: nothing to register. */
  ZERO_LENGTH("give the entry its buffer's length, or drop it; an empty entry is recorded as skipped"),
  /** The device (GPU ordinal or NUMA node) is absent or its driver is missing. */
  DEVICE_UNAVAILABLE(
      "check the device id against the devices present (nvidia-smi, /sys/devices/system/node) and"
          + " that the driver is loaded"),
  /** Memory or the pinning limit ran out. */
  OUT_OF_MEMORY(
      "free memory or raise the limit: ulimit -l (RLIMIT_MEMLOCK) for pinned regions, the size of"
          + " /dev/shm for shared memory, or register fewer or smaller regions"),
  /** The range overlaps a region this backend already holds. */
  DUPLICATE_REGISTRATION(
      "deregister the existing region first, or register a range that does not overlap it"),
  /** The native library refused for a reason outside this list; see its code and message. */
  BACKEND_ERROR(
      "read the native code and message; if it persists, report it with the backend version"
          + " (ucx_info -v)"),
  /** The backend did not load (library missing, init failed). */
  BACKEND_UNAVAILABLE(
      "install the backend's library (libucx0 for libucp.so.0) or leave the backend out of the"
          + " engine configuration");

  private final String remediation;

  RegistrationFailure(String remediation) {
    this.remediation = remediation;
  }

  /** What an operator should change, in general; a diagnosis may say more. */
  public String remediation() {
    return remediation;
  }

  /** Whether the entry held nothing to register (a skip, not a failure). */
  public boolean nothingToRegister() {
    return this == NULL_ADDRESS || this == ZERO_LENGTH;
  }
}
