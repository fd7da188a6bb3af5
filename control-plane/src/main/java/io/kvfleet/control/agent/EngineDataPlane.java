package io.kvfleet.control.agent;

import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.Peer;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.Registration;
import io.kvfleet.engine.RemoteKey;
import io.kvfleet.engine.RemoteRegion;
import io.kvfleet.engine.TransferBatch;
import io.kvfleet.engine.TransferResult;
import io.kvfleet.engine.WorkerAddress;
import io.kvfleet.engine.cuda.IpcHandle;
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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32C;

/**
 * A node's data plane on the native engine: regions are registered with every engine backend
 * (UCX, host, CUDA where present) and transfers run through the first backend that both ends
 * registered with, or else through the {@link StagedPath} when one end is staged. Peers and
 * imported remote keys are cached, one cache for transfers (the agent's ordered worker) and one for
 * landing staged chunks (its landing thread).
 */
public final class EngineDataPlane implements DataPlane {
  private static final String CUDA_IPC = "cuda-ipc:";

  private final Engine engine;
  private final Map<String, Map<String, Registration>> registrations = new ConcurrentHashMap<>();
  private final Links sending = new Links();
  private final Links landing = new Links();
  private final StagedPath staged;

  /** A data plane staging VRAM with CUDA where ucx cannot register it. */
  public EngineDataPlane(Engine engine) {
    this(engine, new CudaStaging(engine));
  }

  /** A data plane staging VRAM with {@code staging}. */
  public EngineDataPlane(Engine engine, Staging staging) {
    this.engine = engine;
    this.staged = new StagedPath(engine, staging, sending, landing);
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

  /** Staged at the address the cuda backend mapped it to, when it imported it from a CUDA IPC handle. */
  @Override
  public List<FleetEvent> stage(String nodeId, long epoch, RegionSpec region) {
    var cuda = registrations.getOrDefault(region.regionId(), Map.of()).get("cuda");
    long address = cuda == null ? region.address() : cuda.address();
    return List.of(staged.stage(nodeId, epoch, region, address));
  }

  @Override
  public Optional<Landings.Refused> land(StagedChunk chunk) {
    return staged.land(chunk);
  }

  @Override
  public List<FleetEvent> register(String nodeId, long epoch, RegionSpec region, String handle) {
    var held = registrations.getOrDefault(region.regionId(), Map.of());
    if (!held.isEmpty()) {
      // Registering it again would leave the first registration pinned with nothing to release it.
      return held.keySet().stream().sorted().<FleetEvent>map(backend -> new RegistrationFailed(nodeId, epoch, region,
          backend, ReasonCodes.DUPLICATE_REGISTRATION, region.regionId() + " is already registered with " + backend
          + " on this node", 0, "", capability(backend), "deregister " + region.regionId()
          + " first or use another region id")).toList();
    }
    RegionRequest request;
    try {
      request = request(region, handle);
    } catch (EngineException e) {
      return List.of(new RegistrationFailed(nodeId, epoch, region, "cuda", ReasonCodes.INVALID_ADDRESS,
          region.regionId() + ": " + e.getMessage(), 0, "", capability("cuda"),
          "send the handle cudaIpcGetMemHandle gave the worker, base64-encoded, as cuda-ipc:<base64>"));
    }
    var result = engine.register(request);
    var byBackend = registrations.computeIfAbsent(region.regionId(), id -> new HashMap<>());
    result.registrations().forEach(r -> byBackend.put(r.backend(), r));
    return EngineEvents.registration(nodeId, epoch, region, result);
  }

  @Override
  public List<FleetEvent> deregister(String nodeId, long epoch, String regionId) {
    var held = registrations.remove(regionId);
    List<FleetEvent> events = new ArrayList<>();
    if (held != null) {
      held.forEach((backend, registration) -> {
        engine.deregister(registration);
        events.add(new RegionDeregistered(nodeId, epoch, regionId, backend, "deregistered by the worker"));
      });
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

  private static RegionRequest request(RegionSpec region, String handle) {
    if (handle.startsWith("shm:")) {
      return RegionRequest.sharedMemory(region.regionId(), handle.substring(4), 0, region.length());
    }
    if (handle.startsWith(CUDA_IPC)) {
      return IpcHandle.fromBase64(handle.substring(CUDA_IPC.length()))
          .request(region.regionId(), Math.max(region.device(), 0), region.length());
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
    if (!order.parts().isEmpty()) {
      return new RequestTransferRun(engine.backends(), id -> registrations.getOrDefault(id, Map.of()), sending)
          .run(order);
    }
    TransferRequested request = order.request();
    var local = registrations.getOrDefault(request.sourceRegion(), Map.of());
    Optional<String> backend = engine.backends().stream()
        .filter(b -> local.containsKey(b) && order.destinationKeys().containsKey(b))
        .findFirst();
    boolean stageable = staged.holds(request.sourceRegion())
        || order.destinationKeys().containsKey(StagedPath.BACKEND);
    if (backend.isEmpty() && stageable) {
      return staged(order, local, landings);
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
      return stageable ? staged(order, local, landings)
          : failed(request, ReasonCodes.TRANSPORT_ERROR, String.valueOf(e.getMessage()));
    }
    try {
      RemoteRegion remote = sending.remote(peer, order.destinationKeys().get(backend.get()));
      var batch = new TransferBatch();
      Registration registration = local.get(backend.get());
      for (ByteRange r : request.ranges()) {
        batch.add(registration, r.sourceOffset(), remote, r.destinationOffset(), r.length());
      }
      var result = request.op() == TransferOp.WRITE ? peer.write(batch) : peer.read(batch);
      return switch (result) {
        case TransferResult.Completed c -> new TransferCompleted(request.transferId(), request.sourceNode(),
            c.bytes(), c.nanos(), c.path(), request.checksum() ? checksum(registration, request) : "");
        case TransferResult.Failed f -> new TransferFailed(request.transferId(), request.sourceNode(),
            f.reason().name(), f.nativeCode(), f.detail() + (f.nativeMessage().isEmpty() ? "" : ": " + f.nativeMessage()));
      };
    } catch (RuntimeException e) {
      return failed(request, ReasonCodes.TRANSPORT_ERROR, String.valueOf(e.getMessage()));
    }
  }

  private FleetEvent staged(TransferOrder order, Map<String, Registration> local, Landings landings) {
    try {
      return staged.send(order, Optional.ofNullable(local.get("ucx")), landings);
    } catch (RuntimeException e) {
      return failed(order.request(), ReasonCodes.TRANSPORT_ERROR, "staged path: " + e.getMessage());
    }
  }

  /** Peers and attached remote keys, cached; each cache is used by one thread at a time. */
  private final class Links implements StagedPath.Links, AutoCloseable {
    private final Map<WorkerAddress, Peer> peers = new HashMap<>();
    /** By peer and key: a peer replaced after it broke needs its keys attached again. */
    private final Map<Map.Entry<Peer, String>, RemoteRegion> remotes = new HashMap<>();

    @Override
    public Peer peer(String backend, String transport) {
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

    @Override
    public RemoteRegion remote(Peer peer, String key) {
      return remotes.computeIfAbsent(Map.entry(peer, key), k -> peer.attach(RemoteKey.fromBase64(key)));
    }

    @Override
    public void close() {
      remotes.values().forEach(RemoteRegion::close);
      peers.values().forEach(Peer::close);
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
