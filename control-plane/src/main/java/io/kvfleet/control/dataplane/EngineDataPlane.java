package io.kvfleet.control.dataplane;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.protocol.TransferOrder;
import io.kvfleet.control.protocol.StagedChunk;
import io.kvfleet.control.protocol.Landings;
import io.kvfleet.engine.DeviceAccess;
import io.kvfleet.engine.Direction;
import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.PendingTransfer;
import io.kvfleet.engine.Peer;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.RegionLocation;
import io.kvfleet.engine.Registration;
import io.kvfleet.engine.RemoteKey;
import io.kvfleet.engine.RemoteRegion;
import io.kvfleet.engine.TransferBatch;
import io.kvfleet.engine.TransferResult;
import io.kvfleet.engine.WorkerAddress;
import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionDeregistered;
import io.kvfleet.events.RegistrationFailed;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.zip.CRC32C;

/**
 * A node's data plane on the native engine: regions are registered with every engine backend
 * (UCX, host, CUDA where present) and transfers run through the first backend that both ends
 * registered with, or else through the {@link StagedPath} when one end is staged. The engine's
 * registry is the one record of what is registered, and its rule the one duplicate rule. Peers
 * and imported remote keys are cached, one cache for transfers (the agent's workers, one per
 * destination at a time) and one for landing staged chunks (its landing thread); both are
 * thread-safe. A transfer waits for its batch until the request's deadline at most. Backends are told apart by what they can do,
 * never by name.
 */
public final class EngineDataPlane implements DataPlane {
  private final Engine engine;
  private final Optional<DeviceAccess> device = DeviceAccess.find();
  private final Links sending = new Links();
  private final Links landing = new Links();
  private final StagedPath staged;

  /** A data plane staging VRAM with the device runtime where no cross-host backend can register it. */
  public EngineDataPlane(Engine engine) {
    this(engine, new DeviceStaging(engine));
  }

  /** A data plane on a new engine of the default backends, named {@code name}. */
  public static EngineDataPlane open(String name) {
    return new EngineDataPlane(Engine.open(EngineConfig.defaults().withName(name)));
  }

  /** {@link #open(String)}, UCX limited to the network devices {@code ucxNetDevices} (UCX_NET_DEVICES; empty: all). */
  public static EngineDataPlane open(String name, String ucxNetDevices) {
    return open(name, ucxNetDevices, false);
  }

  /** {@link #open(String, String)}, with UCX's tcp transport when {@code ucxAllowTcp} (docs/SECURITY.md, F0). */
  public static EngineDataPlane open(String name, String ucxNetDevices, boolean ucxAllowTcp) {
    return new EngineDataPlane(Engine.open(EngineConfig.defaults().withName(name).withUcxNetDevices(ucxNetDevices)
        .withUcxAllowTcp(ucxAllowTcp)));
  }

  /** A data plane staging VRAM with {@code staging}. */
  public EngineDataPlane(Engine engine, Staging staging) {
    this.engine = engine;
    this.staged = new StagedPath(engine, staging, sending, landing);
  }

  /**
   * Host memory from this node's engine, to register by address: the only addresses in the agent's
   * process an engine registers (its heap, code and stacks are refused {@code NOT_AGENT_MEMORY}).
   * Freed when the data plane closes; touching it after that throws instead of faulting.
   */
  public MemorySegment allocate(String name, long length) {
    return engine.allocate(name, length).segment();
  }

  @Override
  public String transportAddress() {
    return String.join(",", engine.addresses().stream().map(WorkerAddress::toBase64).toList());
  }

  @Override
  public List<BackendCapability> capabilities() {
    var all = new ArrayList<>(engine.capabilities().stream().map(EngineEvents::capability).toList());
    all.add(staged.capability());
    return all;
  }

  @Override
  public boolean reachesOtherHosts(String backend) {
    return engine.capability(backend).map(c -> c.available() && c.crossHost()).orElse(false);
  }

  /** Staged at the address the device backend mapped it to, when it imported it from a device handle. */
  @Override
  public List<FleetEvent> stage(String nodeId, long epoch, RegionSpec region) {
    long address = engine.registrations(region.regionId()).stream()
        .filter(r -> r.request().location() instanceof RegionLocation.DeviceHandle)
        .mapToLong(Registration::address).findFirst().orElse(region.address());
    return List.of(staged.stage(nodeId, epoch, region, address));
  }

  @Override
  public Optional<Landings.Refused> land(StagedChunk chunk) {
    return staged.land(chunk);
  }

  /**
   * Registers with every backend; a region id or memory a backend holds already is refused there
   * {@code DUPLICATE_REGISTRATION} by the engine (registering it again would leave the first
   * registration pinned with nothing to release it).
   */
  @Override
  public List<FleetEvent> register(String nodeId, long epoch, RegionSpec region, String handle) {
    RegionRequest request;
    try {
      request = request(region, handle);
    } catch (EngineException e) {
      String backend = device.map(DeviceAccess::backend).orElse("device");
      return List.of(new RegistrationFailed(nodeId, epoch, region, backend, ReasonCodes.INVALID_ADDRESS,
          region.regionId() + ": " + e.getMessage(), 0, "", capability(backend),
          device.map(DeviceAccess::handleHelp).orElse("")));
    }
    return EngineEvents.registration(nodeId, epoch, region, engine.registerNamed(request));
  }

  @Override
  public List<FleetEvent> deregister(String nodeId, long epoch, String regionId) {
    List<FleetEvent> events = new ArrayList<>();
    var registrations = engine.registrations(regionId);
    try {
      engine.deregisterAll(registrations); // every backend or none
    } catch (EngineException e) {
      if (e.busy()) {
        throw KvfleetException.busy(e.getMessage());
      }
      throw e;
    }
    for (Registration registration : registrations) {
      events.add(new RegionDeregistered(nodeId, epoch, regionId, registration.backend(), "deregistered by the worker"));
    }
    if (staged.withdraw(regionId)) {
      events.add(new RegionDeregistered(nodeId, epoch, regionId, StagedPath.BACKEND, "deregistered by the worker"));
    }
    return events;
  }

  private BackendCapability capability(String backend) {
    return engine.capability(backend).map(EngineEvents::capability)
        .orElse(new BackendCapability(backend, false, "", List.of(), List.of(), "no " + backend + " backend"));
  }

  private RegionRequest request(RegionSpec region, String handle) {
    if (handle.startsWith("shm:")) {
      return RegionRequest.sharedMemory(region.regionId(), handle.substring(4), 0, region.length());
    }
    var importer = device.filter(d -> handle.startsWith(d.handlePrefix()));
    if (importer.isPresent()) {
      return importer.get().importHandle(region.regionId(), Math.max(region.device(), 0),
          handle.substring(importer.get().handlePrefix().length()), region.length());
    }
    return region.memoryType() == MemoryType.VRAM
        ? RegionRequest.vram(region.regionId(), Math.max(region.device(), 0), region.address(), region.length())
        : RegionRequest.dram(region.regionId(), region.address(), region.length());
  }

  @Override
  public FleetEvent transfer(TransferOrder order) {
    return transfer(order, Landings.NONE);
  }

  @Override
  public FleetEvent transfer(TransferOrder order, Landings landings) {
    return transfer(order, landings, Fence.UNFENCED);
  }

  /** One page per native batch: the direct path's one batch, each staged chunk, each backend's batch of parts. */
  @Override
  public FleetEvent transfer(TransferOrder order, Landings landings, Fence fence) {
    if (!order.parts().isEmpty()) {
      return new RequestTransferRun(engine.backends(), this::held, sending)
          .run(order, fence);
    }
    TransferRequested request = order.request();
    var local = held(request.sourceRegion());
    Optional<String> backend = engine.backends().stream()
        .filter(b -> local.containsKey(b) && order.destinationKeys().containsKey(b))
        .findFirst();
    boolean stageable = staged.holds(request.sourceRegion())
        || order.destinationKeys().containsKey(StagedPath.BACKEND);
    if (backend.isEmpty() && stageable) {
      return staged(order, local, landings, fence);
    }
    if (backend.isEmpty()) {
      return failed(request, ReasonCodes.NOT_EXPOSED, "no backend registered both regions: local "
          + local.keySet() + ", destination " + order.destinationKeys().keySet());
    }
    Peer peer;
    try {
      peer = sending.peer(backend.get(), order.destinationTransport());
    } catch (RuntimeException e) {
      // e.g. cuda IPC to another host: the staged path reaches it when both ends offer it
      return stageable ? staged(order, local, landings, fence)
          : failed(request, reasonOf(e), String.valueOf(e.getMessage()));
    }
    try {
      RemoteRegion remote = sending.remote(peer, order.destinationKeys().get(backend.get()));
      var batch = new TransferBatch();
      Registration registration = local.get(backend.get());
      for (ByteRange r : request.ranges()) {
        batch.add(registration, r.sourceOffset(), remote, r.destinationOffset(), r.length());
      }
      var refused = fence.before(request, () -> "its one batch of " + request.ranges().size() + " ranges", 0);
      if (refused.isPresent()) {
        return refused.get();
      }
      // Bounded by the request's own deadline and the agent's lease, not the engine's, each less a
      // page's margin: a dead peer fails this transfer before the fleet may time it out (or declare
      // this node lost), and the bytes it holds back are never written after that. A batch posted
      // runs to one of those ends even if the fleet ends the transfer meanwhile: given up then, what
      // it moved would be unknown, where a dead destination (the usual reason) takes nothing anyway.
      var result = awaitWhile(peer.post(request.op() == TransferOp.WRITE ? Direction.WRITE : Direction.READ, batch),
          request.deadlineMillis() - fence.deadlineMarginMillis(), fence::mayGoOn);
      // Asked once the batch ended, so the clocks it reads are later than every byte that landed.
      boolean inTime = fence.landedInTime(request.deadlineMillis());
      return switch (result) {
        case TransferResult.Completed c when !inTime -> LandedLate.failed(request, c.bytes(),
            "its one batch of " + request.ranges().size() + " ranges", 0);
        case TransferResult.Completed c -> new TransferCompleted(request.transferId(), request.sourceNode(),
            c.bytes(), c.nanos(), c.path(), request.checksum() ? checksum(registration, request) : "");
        // Ended part-way (abandoned on the lease or the deadline, or broken): what earlier polls (or the NIC) moved is unknown.
        case TransferResult.Failed f when !inTime && LandedLate.mayHaveMoved(f.reason()) ->
            LandedLate.failed(request, request.totalBytes(), "at most: its one batch of " + request.ranges().size()
                + " ranges, abandoned part-way", 0);
        case TransferResult.Failed f -> new TransferFailed(request.transferId(), request.sourceNode(),
            f.reason().name(), f.nativeCode(), f.detail() + (f.nativeMessage().isEmpty() ? "" : ": " + f.nativeMessage()));
      };
    } catch (RuntimeException e) {
      return failed(request, reasonOf(e), String.valueOf(e.getMessage()));
    }
  }

  private FleetEvent staged(TransferOrder order, Map<String, Registration> local, Landings landings, Fence fence) {
    try {
      return staged.send(order, staged.carrier().map(local::get), landings, fence);
    } catch (RuntimeException e) {
      return failed(order.request(), ReasonCodes.TRANSPORT_ERROR, "staged path: " + e.getMessage());
    }
  }

  /** The reason code of a connect or batch that threw: the engine's own when it has one (NO_COMMON_TRANSPORT), else TRANSPORT_ERROR. */
  static String reasonOf(RuntimeException e) {
    return e instanceof EngineException engine
        ? engine.transferFailure().map(Enum::name).orElse(ReasonCodes.TRANSPORT_ERROR)
        : ReasonCodes.TRANSPORT_ERROR;
  }

  /** The live registrations of {@code regionId} by backend, as the engine holds them. */
  private Map<String, Registration> held(String regionId) {
    Map<String, Registration> byBackend = new HashMap<>();
    engine.registrations(regionId).forEach(r -> byBackend.put(r.backend(), r));
    return byBackend;
  }

  /** Peers and attached remote keys, cached; each cache is used by one thread at a time. */
  private final class Links implements StagedPath.Links, AutoCloseable {
    private final Map<WorkerAddress, Peer> peers = new HashMap<>();
    /** How long a refused attach stands before the peer is asked again. */
    private static final Duration ASK_AGAIN = Duration.ofSeconds(1);
    /** By peer and key: a peer replaced after it broke needs its keys attached again. */
    private final Map<Map.Entry<Peer, String>, RemoteRegion> remotes = new HashMap<>();
    /** When each refused attach in {@code remotes} was refused ({@link System#nanoTime}). */
    private final Map<Map.Entry<Peer, String>, Long> refused = new HashMap<>();
    private final Object attaching = new Object();

    @Override
    public synchronized Peer peer(String backend, String transport) {
      WorkerAddress address = Arrays.stream(transport.split(","))
          .filter(s -> !s.isBlank())
          .map(WorkerAddress::fromBase64)
          .filter(a -> a.backend().equals(backend))
          .findFirst()
          .orElseThrow(() -> new IllegalArgumentException("the other node exports no " + backend + " address"));
      Peer peer = peers.get(address);
      if (peer == null || !peer.isUsable()) {
        peer = engine.connect(address);
        peers.put(address, peer);
      }
      return peer;
    }

    /**
     * The peer's region for {@code key}, attached once. A refused attach (no confirmation from the
     * peer in time, or a "no") is kept for {@link #ASK_AGAIN} only, then asked again, so one slow
     * answer does not fail the region for good; the attach waits for the peer outside the lock
     * that lookups take.
     */
    @Override
    public RemoteRegion remote(Peer peer, String key) {
      var entry = Map.entry(peer, key);
      synchronized (this) {
        RemoteRegion known = remotes.get(entry);
        Long refusedAt = refused.get(entry);
        if (known != null && (refusedAt == null || System.nanoTime() - refusedAt < ASK_AGAIN.toNanos())) {
          return known;
        }
        if (known != null) {
          remotes.remove(entry);
          refused.remove(entry);
          known.close();
        }
      }
      RemoteRegion attached;
      synchronized (attaching) { // one attach at a time, as before; lookups of attached keys do not wait
        attached = peer.attach(RemoteKey.fromBase64(key));
      }
      RemoteRegion raced;
      synchronized (this) {
        raced = remotes.putIfAbsent(entry, attached);
        if (raced == null && attached.refused()) {
          refused.put(entry, System.nanoTime());
        }
      }
      if (raced == null) {
        return attached;
      }
      attached.close(); // another batch attached it meanwhile
      return raced;
    }

    @Override
    public synchronized void close() {
      remotes.values().forEach(RemoteRegion::close);
      peers.values().forEach(Peer::close);
    }
  }

  /**
   * The batch's result, or its failure once the deadline passed or {@code mayGoOn} said no. {@code
   * mayGoOn} is asked before every poll, since a poll progresses the batch (moves bytes): after a
   * pause that outlived the agent's lease (SIGSTOP, a long GC) not one more poll runs.
   */
  private static TransferResult awaitWhile(PendingTransfer pending, long deadlineMillis, BooleanSupplier mayGoOn) {
    while (true) {
      if (!mayGoOn.getAsBoolean()) {
        return pending.abandon("the agent could not prove its lease while the batch ran; abandoned");
      }
      var done = pending.poll();
      if (done.isPresent()) {
        return done.get();
      }
      if (System.currentTimeMillis() >= deadlineMillis) {
        return pending.await(Duration.ofNanos(1)); // gives up on it: abandoned, the peer marked broken
      }
      Thread.onSpinWait();
    }
  }

  private static String checksum(Registration local, TransferRequested request) {
    var crc = new CRC32C();
    var memory = MemorySegment.ofAddress(local.address()).reinterpret(local.length());
    for (ByteRange r : request.ranges()) {
      crc.update(memory.asSlice(r.sourceOffset(), r.length()).asByteBuffer());
    }
    return HexFormat.of().toHexDigits((int) crc.getValue());
  }

  private static TransferFailed failed(TransferRequested request, String reason, String detail) {
    return new TransferFailed(request.transferId(), request.sourceNode(), reason, 0, detail);
  }

  @Override
  public void close() {
    sending.close();
    landing.close();
    staged.close();
    engine.close();
  }
}
