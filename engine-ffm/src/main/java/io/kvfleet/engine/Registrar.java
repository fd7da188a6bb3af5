package io.kvfleet.engine;

import io.kvfleet.engine.RegistrationOutcome.Failed;
import io.kvfleet.engine.RegistrationOutcome.Registered;
import io.kvfleet.engine.RegistrationOutcome.Skipped;
import io.kvfleet.engine.internal.Hex;
import io.kvfleet.engine.internal.Libc;
import io.kvfleet.engine.internal.NumaNodes;
import io.kvfleet.engine.internal.ProcMaps;
import io.kvfleet.engine.internal.SharedMapping;
import io.kvfleet.engine.spi.Backend;
import io.kvfleet.engine.spi.RegisterResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One registration, start to end: refuse a named region whose id is live, skip null and empty
 * entries, find the memory, check it once for every backend, refuse memory a backend holds
 * already, then ask each backend in priority order. That is the engine's one duplicate rule: a
 * backend holds each byte once, and a named region once. Runs under the
 * engine's lock.
 */
final class Registrar {
  private final Engine engine;
  private final List<Capability> capabilities;
  private final Map<String, Backend> backends;
  private final RegionRegistry registry;

  Registrar(Engine engine, List<Capability> capabilities, Map<String, Backend> backends,
      RegionRegistry registry) {
    this.engine = engine;
    this.capabilities = capabilities;
    this.backends = backends;
    this.registry = registry;
  }

  /** Where the request's memory is in this process, or why it cannot be found. */
  private sealed interface Location {}

  /** Found; address 0 for a device handle that only its backend can open. */
  private record Located(long address, SharedMapping mapping) implements Location {}

  private record NotFound(Diagnosis diagnosis) implements Location {}

  RegistrationResult register(RegionRequest request) {
    return register(request, false);
  }

  /**
   * Registers {@code request}; when {@code named}, its region id names it on this engine, and a
   * request whose id is live already is refused whole, before its memory is looked at: {@code
   * DUPLICATE_REGISTRATION} by each backend that holds the id, skipped by the others.
   */
  RegistrationResult register(RegionRequest request, boolean named) {
    List<Registration> holders = named ? registry.withId(request.regionId()) : List.of();
    if (!holders.isEmpty()) {
      return duplicateName(request, holders);
    }
    Optional<Diagnosis> empty = nullOrEmpty(request);
    if (empty.isPresent()) {
      return new RegistrationResult(request, capabilities.stream()
          .<RegistrationOutcome>map(c -> new Skipped(c.backend(), request, empty.get(), c))
          .toList());
    }
    Location location = locate(request);
    Located memory = location instanceof Located l ? l : null;
    Optional<Diagnosis> invalid = switch (location) {
      case NotFound notFound -> Optional.of(notFound.diagnosis());
      case Located located -> validate(request, located.address());
    };
    MemoryHold hold = new MemoryHold(memory == null ? null : memory.mapping());
    if (invalid.isEmpty() && request.pin() && request.memoryType() == MemoryType.DRAM) {
      invalid = hold.pin(request, memory.address());
    }
    List<RegistrationOutcome> outcomes = new ArrayList<>();
    for (Capability capability : capabilities) {
      // A check's verdict is for the backends that handle the type; the others say why not
      // themselves (UCX without CUDA: no memory domain), which is the truer reason for them.
      boolean checked = memory == null || capability.supports(request.memoryType());
      outcomes.add(invalid.isPresent() && capability.available() && checked
          ? new Failed(capability.backend(), request, invalid.get(), capability)
          : registerWith(capability, request, memory, hold));
    }
    hold.releaseIfUnused();
    return new RegistrationResult(request, outcomes);
  }

  private RegistrationResult duplicateName(RegionRequest request, List<Registration> holders) {
    List<String> held = holders.stream().map(Registration::backend).toList();
    String remediation = "deregister " + request.regionId() + " first or use another region id";
    List<RegistrationOutcome> outcomes = new ArrayList<>();
    for (Capability capability : capabilities) {
      String name = capability.backend();
      outcomes.add(held.contains(name)
          ? new Failed(name, request, Diagnosis.of(RegistrationFailure.DUPLICATE_REGISTRATION,
              request.regionId() + " is already registered with " + name + " on this node")
              .withRemediation(remediation), capability)
          : new Skipped(name, request, Diagnosis.of(RegistrationFailure.DUPLICATE_REGISTRATION,
              request.regionId() + " is registered with " + held + " on this node; not registered again")
              .withRemediation(remediation), capability));
    }
    return new RegistrationResult(request, outcomes);
  }

  private RegistrationOutcome registerWith(Capability capability, RegionRequest request,
      Located memory, MemoryHold hold) {
    String name = capability.backend();
    if (!capability.available()) {
      return new Skipped(name, request, Diagnosis.of(RegistrationFailure.BACKEND_UNAVAILABLE,
          name + " is unavailable: " + capability.detail()), capability);
    }
    Optional<Registration> existing = memory.address() == 0
        ? Optional.empty() // a device handle: its backend knows the address, and the duplicates
        : registry.overlapping(name, request.memoryType(), memory.address(), request.length());
    if (existing.isPresent()) {
      return new Failed(name, request, Diagnosis.of(RegistrationFailure.DUPLICATE_REGISTRATION,
          request.regionId() + " at " + Hex.range(memory.address(), request.length())
              + " overlaps " + existing.get().describe()), capability);
    }
    RegisterResult result = backends.get(name).register(request, memory.address());
    return switch (result) {
      // A backend that cannot grant this memory (host, for memory UCX allocated) does not take
      // part, as an unavailable one does not: the region is registered if another backend took it.
      case RegisterResult.Refused refused
          when refused.diagnosis().reason() == RegistrationFailure.NOT_GRANTABLE ->
          new Skipped(name, request, refused.diagnosis(), capability);
      case RegisterResult.Refused refused ->
          new Failed(name, request, refused.diagnosis(), capability);
      case RegisterResult.Accepted accepted -> {
        hold.acquire();
        Registration registration =
            new Registration(engine, name, request, accepted.region(), hold::release);
        registry.add(registration);
        yield new Registered(name, request, registration);
      }
    };
  }

  /** A null location comes first: an entry with neither address nor length is a null entry. */
  private static Optional<Diagnosis> nullOrEmpty(RegionRequest request) {
    String what = switch (request.location()) {
      case RegionLocation.Address a when a.address() == 0 -> "null address";
      case RegionLocation.SharedMemory s when s.name().isEmpty() -> "empty shared-memory name";
      case RegionLocation.DeviceHandle h when h.handle().length == 0 -> "empty device handle";
      default -> null;
    };
    RegistrationFailure reason = RegistrationFailure.NULL_ADDRESS;
    if (what == null && request.length() == 0) {
      what = "zero length";
      reason = RegistrationFailure.ZERO_LENGTH;
    }
    return what == null
        ? Optional.empty()
        : Optional.of(Diagnosis.of(reason,
            request.regionId() + ": " + what + " (" + request.location() + ", length "
                + request.length() + "); nothing to register"));
  }

  private static Location locate(RegionRequest request) {
    return switch (request.location()) {
      case RegionLocation.Address a -> new Located(a.address(), null);
      case RegionLocation.DeviceHandle h -> request.memoryType() == MemoryType.VRAM
          ? new Located(0, null)
          : new NotFound(Diagnosis.of(RegistrationFailure.INVALID_ADDRESS,
              request.regionId() + ": a device handle names VRAM, not DRAM"));
      case RegionLocation.SharedMemory s -> mapShared(request, s);
    };
  }

  /**
   * The names of the shared memory engines make for themselves (the host backend's grants, allocations and
   * owner files): another agent's memory, which a worker's {@code shm:} handle must never name (its grant
   * names are on Kafka for anyone to read).
   */
  private static final List<String> ENGINE_NAMES = List.of("kvfleet-grant-", "kvfleet-alloc-", "kvfleet-owner-");

  /**
   * The object {@code shm_open} opens for {@code name}: glibc drops every leading slash, so the check
   * of engine names must look at the name without all of them ({@code //kvfleet-grant-...} is a grant
   * too).
   */
  static String shmObject(String name) {
    int from = 0;
    while (from < name.length() && name.charAt(from) == '/') {
      from++;
    }
    return name.substring(from);
  }

  private static Location mapShared(RegionRequest request, RegionLocation.SharedMemory shm) {
    String bare = shmObject(shm.name());
    if (ENGINE_NAMES.stream().anyMatch(bare::startsWith)) {
      return new NotFound(Diagnosis.of(RegistrationFailure.NOT_AGENT_MEMORY, request.regionId()
          + ": shared memory " + shm.name() + " is an engine's own (a grant or allocation of an agent), not a"
          + " worker's; a worker hands over shared memory it made"));
    }
    // One spelling only, the one every backend reads (the host backend grants "/NAME"): what is
    // checked above is then what shm_open opens and what each backend registers.
    if (!shm.name().equals("/" + bare) || bare.isEmpty() || bare.indexOf('/') >= 0 || bare.indexOf('\0') >= 0) {
      return new NotFound(Diagnosis.of(RegistrationFailure.INVALID_ADDRESS, request.regionId()
          + ": " + shm.name() + " is not a shared-memory object's name: give it as /NAME, one '/' before one"
          + " name and none inside it, no NUL (e.g. /kv-L0)"));
    }
    return switch (SharedMapping.open(shm.name())) {
      case SharedMapping.NotMapped notMapped -> new NotFound(notMapped.diagnosis());
      case SharedMapping.Mapped mapped -> {
        SharedMapping mapping = mapped.mapping();
        if (shm.offset() > mapping.length() - request.length()) {
          mapping.close();
          yield new NotFound(Diagnosis.of(RegistrationFailure.INVALID_ADDRESS, request.regionId()
              + ": offset " + shm.offset() + " + length " + request.length()
              + " runs past the end of shared memory " + shm.name() + " (" + mapping.length()
              + " bytes)"));
        }
        yield new Located(mapping.address() + shm.offset(), mapping);
      }
    };
  }

  private Optional<Diagnosis> validate(RegionRequest request, long address) {
    if (request.memoryType() == MemoryType.DRAM) {
      Optional<String> device = NumaNodes.problemWith(request.device());
      if (device.isPresent()) {
        return Optional.of(Diagnosis.of(RegistrationFailure.DEVICE_UNAVAILABLE,
            request.regionId() + ": " + device.get()));
      }
      Optional<Diagnosis> unmapped = ProcMaps.problemWith(address, request.length())
          .map(problem -> Diagnosis.of(RegistrationFailure.INVALID_ADDRESS,
              request.regionId() + ": " + problem));
      return unmapped.isPresent() ? unmapped : notAgentMemory(request, address);
    }
    for (Backend backend : backends.values()) {
      if (backend.validates(request.memoryType())) {
        Optional<Diagnosis> problem = backend.validate(request, address);
        if (problem.isPresent()) {
          return problem;
        }
      }
    }
    return Optional.empty();
  }

  /**
   * An address range must lie in memory the engine allocated (or admitted) for registration: the
   * agent's heap, code, stacks and libraries are mapped and writable, and a peer writing into them
   * would crash the agent. A shared-memory object is the engine's own mapping, so it is checked.
   */
  private Optional<Diagnosis> notAgentMemory(RegionRequest request, long address) {
    if (!(request.location() instanceof RegionLocation.Address)
        || engine.allocatedForRegistration(address, request.length())) {
      return Optional.empty();
    }
    return Optional.of(Diagnosis.of(RegistrationFailure.NOT_AGENT_MEMORY, request.regionId() + ": "
        + Hex.range(address, request.length()) + " is mapped in the agent's process but is not in a"
        + " buffer the engine allocated for registration (the agent's heap, code, stacks or"
        + " libraries are never registered)"));
  }

  /**
   * What all backends' registrations of one request share: the shared-memory mapping and the page
   * lock. Page locks do not nest, so the engine locks once and unlocks when the last registration
   * of the request ends (or at once when none was made).
   */
  private static final class MemoryHold {
    private final SharedMapping mapping;
    private final AtomicInteger users = new AtomicInteger();
    private long pinnedAddress;
    private long pinnedLength;

    MemoryHold(SharedMapping mapping) {
      this.mapping = mapping;
    }

    Optional<Diagnosis> pin(RegionRequest request, long address) {
      Libc.Result locked = Libc.mlock(address, request.length());
      if (!locked.failed()) {
        pinnedAddress = address;
        pinnedLength = request.length();
        return Optional.empty();
      }
      int errno = locked.errno();
      boolean limit = errno == Libc.ENOMEM || errno == Libc.EAGAIN || errno == Libc.EPERM;
      long[] memlock = Libc.getrlimit(Libc.RLIMIT_MEMLOCK);
      return Optional.of(Diagnosis.ofNative(
          limit ? RegistrationFailure.OUT_OF_MEMORY : RegistrationFailure.BACKEND_ERROR,
          request.regionId() + ": mlock(" + Hex.range(address, request.length()) + ") failed"
              + " (RLIMIT_MEMLOCK soft " + limitText(memlock[0]) + ", hard "
              + limitText(memlock[1]) + ")",
          errno, Libc.strerror(errno)));
    }

    void acquire() {
      users.incrementAndGet();
    }

    void release() {
      if (users.decrementAndGet() == 0) {
        drop();
      }
    }

    void releaseIfUnused() {
      if (users.get() == 0) {
        drop();
      }
    }

    private void drop() {
      if (pinnedLength > 0) {
        Libc.munlock(pinnedAddress, pinnedLength);
        pinnedLength = 0;
      }
      if (mapping != null) {
        mapping.close();
      }
    }

    private static String limitText(long limit) {
      return limit == -1 ? "unlimited" : Hex.bytes(limit);
    }
  }
}
