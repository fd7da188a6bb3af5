package io.kvfleet.engine;

import static java.util.Objects.requireNonNull;

import io.kvfleet.engine.spi.Backend;
import io.kvfleet.engine.spi.BackendAllocation;
import io.kvfleet.engine.spi.BackendPeer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One node's native engine: the backends found at {@link #open}, the regions registered with them,
 * the memory it allocated and the peers it connected to. Calls block (run them on worker threads,
 * never an event loop) and are thread-safe: registration, allocation and connection are serialised
 * by one lock; transfers go through {@link Peer}. Closing it releases every native object it owns.
 */
public final class Engine implements AutoCloseable {
  private final EngineConfig config;
  private final List<Capability> capabilities;
  private final Map<String, Backend> backends;
  private final RegionRegistry registry = new RegionRegistry();
  private final Registrar registrar;
  private final Set<HostMemory> allocations = ConcurrentHashMap.newKeySet();
  private final Set<Admission> admitted = ConcurrentHashMap.newKeySet();
  private final Set<Peer> peers = ConcurrentHashMap.newKeySet();
  private final ReentrantLock lock = new ReentrantLock();
  private volatile boolean closed;

  private Engine(EngineConfig config, List<Capability> capabilities, Map<String, Backend> backends) {
    this.config = config;
    this.capabilities = List.copyOf(capabilities);
    this.backends = backends;
    this.registrar = new Registrar(this, this.capabilities, backends, registry);
  }

  /** Loads every enabled backend provider; a backend that cannot load is listed as unavailable. */
  public static Engine open(EngineConfig config) {
    requireNonNull(config, "config must not be null");
    Map<String, Backend> ready = new LinkedHashMap<>();
    List<Capability> capabilities = new ArrayList<>();
    for (Discovery.Probed probed : Discovery.probe(config)) {
      capabilities.add(probed.capability());
      probed.backend().ifPresent(b -> ready.put(b.name(), b));
    }
    return new Engine(config, capabilities, ready);
  }

  /** {@link #open(EngineConfig)} with {@link EngineConfig#defaults()}. */
  public static Engine open() {
    return open(EngineConfig.defaults());
  }

  public EngineConfig config() {
    return config;
  }

  /** Every backend's capability, available or not, in priority order. */
  public List<Capability> capabilities() {
    return capabilities;
  }

  /** The capability of {@code backend}, if a provider for it was found. */
  public Optional<Capability> capability(String backend) {
    return capabilities.stream().filter(c -> c.backend().equals(backend)).findFirst();
  }

  /** The names of the available backends, in priority order. */
  public List<String> backends() {
    return List.copyOf(backends.keySet());
  }

  /**
   * Allocates host memory owned by this engine from the first backend that allocates (UCX first:
   * its shared-memory transports then write into it directly). Throws {@link EngineException} with
   * an {@link RegistrationFailure#OUT_OF_MEMORY} diagnosis when the memory is not there.
   */
  public HostMemory allocate(String name, long length) {
    requireNonNull(name, "name must not be null");
    if (length <= 0) {
      throw new IllegalArgumentException("length must be positive: " + length);
    }
    lock.lock();
    try {
      ensureOpen();
      for (Backend backend : backends.values()) {
        Optional<BackendAllocation> allocation = backend.allocate(name, length);
        if (allocation.isPresent()) {
          HostMemory memory = new HostMemory(this, name, backend.name(), allocation.get());
          allocations.add(memory);
          return memory;
        }
      }
      throw EngineException.backendNotAvailable("any", "no available backend allocates host memory");
    } finally {
      lock.unlock();
    }
  }

  /**
   * Admits host memory another allocator made for registration (e.g. pinned host buffers from the
   * device runtime) so it may be registered by address; everything else registered by address
   * must lie in memory this engine allocated, or it is refused {@link
   * RegistrationFailure#NOT_AGENT_MEMORY}.
   */
  public Admission admit(String name, long address, long length) {
    requireNonNull(name, "name must not be null");
    if (length <= 0 || address == 0) {
      throw new IllegalArgumentException("nothing to admit: " + name + " at " + address + " length " + length);
    }
    Admission admission = new Admission(this, name, address, length);
    admitted.add(admission);
    return admission;
  }

  void withdraw(Admission admission) {
    admitted.remove(admission);
  }

  /** Whether {@code [address, address + length)} is memory this engine allocated or admitted. */
  boolean allocatedForRegistration(long address, long length) {
    return allocations.stream().anyMatch(m -> !m.isClosed() && covers(m, address, length))
        || admitted.stream().anyMatch(a -> a.covers(address, length));
  }

  private static boolean covers(HostMemory memory, long address, long length) {
    return address >= memory.address() && length <= memory.length()
        && address - memory.address() <= memory.length() - length;
  }

  /** Registers one region with every available backend; one outcome per backend, never throws for an expected failure. */
  public RegistrationResult register(RegionRequest request) {
    requireNonNull(request, "request must not be null");
    lock.lock();
    try {
      ensureOpen();
      return registrar.register(request);
    } finally {
      lock.unlock();
    }
  }

  /**
   * {@link #register}, with the request's region id naming the region on this engine (the node's
   * regions, as the control plane registers them): while any backend holds a live registration of
   * that id, the request is refused {@link RegistrationFailure#DUPLICATE_REGISTRATION} whole. A
   * plain {@code register} treats the id as a label only.
   */
  public RegistrationResult registerNamed(RegionRequest request) {
    requireNonNull(request, "request must not be null");
    lock.lock();
    try {
      ensureOpen();
      return registrar.register(request, true);
    } finally {
      lock.unlock();
    }
  }

  /** Ends a registration; idempotent. Throws if transfer batches still touch it. */
  public void deregister(Registration registration) {
    requireNonNull(registration, "registration must not be null");
    if (registration.engine() != this) {
      throw EngineException.foreign(registration.toString(), "registered by another engine");
    }
    lock.lock();
    try {
      if (registration.end()) {
        registry.remove(registration);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Ends every one of {@code registrations} (a region's, on each backend) or none: each stops taking
   * batches first, then all are checked, so a batch that takes hold of one of them meanwhile keeps them
   * all, with an {@link EngineException#busy}. One released before a busy one was refused left its
   * release unreported.
   */
  public void deregisterAll(List<Registration> registrations) {
    for (Registration registration : registrations) {
      if (registration.engine() != this) {
        throw EngineException.foreign(registration.toString(), "registered by another engine");
      }
    }
    lock.lock();
    try {
      var stopped = new java.util.ArrayList<Registration>();
      for (Registration registration : registrations) {
        if (registration.stop()) {
          stopped.add(registration);
        }
      }
      for (Registration registration : stopped) {
        int busy = registration.inFlight();
        if (busy > 0) {
          stopped.forEach(Registration::resume);
          throw EngineException.busy(registration.describe(), busy);
        }
      }
      // Each closed on its own: one that fails to let go is still out of the registry, and the rest are closed.
      var closer = new Closer();
      for (Registration registration : stopped) {
        registry.remove(registration);
        closer.run(registration::close);
      }
      closer.rethrow();
    } finally {
      lock.unlock();
    }
  }

  /** The live registrations. */
  public List<Registration> registrations() {
    lock.lock();
    try {
      return registry.all();
    } finally {
      lock.unlock();
    }
  }

  /** The live registrations of {@code regionId}, one per backend that holds it. */
  public List<Registration> registrations(String regionId) {
    requireNonNull(regionId, "regionId must not be null");
    lock.lock();
    try {
      return registry.withId(regionId);
    } finally {
      lock.unlock();
    }
  }

  /** What peers need to connect to each available backend. */
  public List<WorkerAddress> addresses() {
    return backends.values().stream()
        .map(b -> new WorkerAddress(b.name(), b.workerAddress()))
        .toList();
  }

  /** What peers need to connect to {@code backend}. */
  public WorkerAddress address(String backend) {
    return new WorkerAddress(backend, backend(backend).workerAddress());
  }

  /** Connects to a peer's exported address through the backend that made it. */
  public Peer connect(WorkerAddress remote) {
    requireNonNull(remote, "remote must not be null");
    lock.lock();
    try {
      ensureOpen();
      BackendPeer connection = backend(remote.backend()).connect(remote.bytes());
      Peer peer = new Peer(this, remote, connection);
      peers.add(peer);
      return peer;
    } finally {
      lock.unlock();
    }
  }

  /** Closes peers, deregisters every region, frees allocations, closes backends. Idempotent. */
  @Override
  public void close() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      Closer closer = new Closer();
      List.copyOf(peers).forEach(p -> closer.run(p::close));
      registry.all().forEach(r -> closer.run(() -> {
        r.forceEnd();
        registry.remove(r);
      }));
      List.copyOf(allocations).forEach(m -> closer.run(m::free));
      allocations.clear();
      backends.values().forEach(b -> closer.run(b::close));
      closer.rethrow();
    } finally {
      lock.unlock();
    }
  }

  void free(HostMemory memory) {
    lock.lock();
    try {
      if (memory.isClosed()) {
        return;
      }
      int live = registry.countWithin(memory.address(), memory.length());
      if (live > 0) {
        throw EngineException.stillRegistered(memory.name(), memory.address(), memory.length(), live);
      }
      memory.free();
      allocations.remove(memory);
    } finally {
      lock.unlock();
    }
  }

  void forget(Peer peer) {
    peers.remove(peer);
  }

  private Backend backend(String name) {
    Backend backend = backends.get(name);
    if (backend == null) {
      String why = capability(name).map(Capability::detail).orElse("no provider on the class path");
      throw EngineException.backendNotAvailable(name, why);
    }
    return backend;
  }

  private void ensureOpen() {
    if (closed) {
      throw EngineException.closed("engine " + config.name());
    }
  }

  @Override
  public String toString() {
    return "Engine[" + config.name() + ", backends " + backends.keySet() + "]";
  }

  /** Runs every close step, keeps the first failure and the rest as suppressed. */
  private static final class Closer {
    private RuntimeException first;

    void run(Runnable step) {
      try {
        step.run();
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }

    void rethrow() {
      if (first != null) {
        throw first;
      }
    }
  }
}
