package io.kvfleet.control.agent;

import io.kvfleet.engine.Engine;
import io.kvfleet.engine.Peer;
import io.kvfleet.engine.RegionRequest;
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
import java.util.zip.CRC32C;

/**
 * A node's data plane on the native engine: regions are registered with every engine backend
 * (UCX, host, CUDA where present) and transfers run through the first backend that both ends
 * registered with. Peers and imported remote keys are cached. The agent calls it from one worker
 * thread at a time (ordered blocking calls), which is the engine's threading contract for peers.
 */
public final class EngineDataPlane implements DataPlane {
  private final Engine engine;
  private final Map<String, Map<String, Registration>> registrations = new HashMap<>();
  private final Map<WorkerAddress, Peer> peers = new HashMap<>();
  private final Map<String, RemoteRegion> remotes = new HashMap<>();

  public EngineDataPlane(Engine engine) {
    this.engine = engine;
  }

  @Override
  public String transportAddress() {
    return String.join(",", engine.addresses().stream().map(WorkerAddress::toBase64).toList());
  }

  @Override
  public List<BackendCapability> capabilities() {
    return engine.capabilities().stream().map(EngineEvents::capability).toList();
  }

  @Override
  public List<FleetEvent> register(String nodeId, long epoch, RegionSpec region, String handle) {
    var request = request(region, handle);
    var result = engine.register(request);
    var byBackend = registrations.computeIfAbsent(region.regionId(), id -> new HashMap<>());
    result.registrations().forEach(r -> byBackend.put(r.backend(), r));
    return EngineEvents.registration(nodeId, epoch, region, result);
  }

  @Override
  public List<FleetEvent> deregister(String nodeId, long epoch, String regionId) {
    var held = registrations.remove(regionId);
    if (held == null) {
      return List.of();
    }
    List<FleetEvent> events = new ArrayList<>();
    held.forEach((backend, registration) -> {
      engine.deregister(registration);
      events.add(new RegionDeregistered(nodeId, epoch, regionId, backend, "deregistered by the worker"));
    });
    return events;
  }

  private static RegionRequest request(RegionSpec region, String handle) {
    if (handle.startsWith("shm:")) {
      return RegionRequest.sharedMemory(region.regionId(), handle.substring(4), 0, region.length());
    }
    return region.memoryType() == MemoryType.VRAM
        ? RegionRequest.vram(region.regionId(), Math.max(region.device(), 0), region.address(), region.length())
        : RegionRequest.dram(region.regionId(), region.address(), region.length());
  }

  @Override
  public FleetEvent transfer(TransferOrder order) {
    TransferRequested request = order.request();
    var local = registrations.getOrDefault(request.sourceRegion(), Map.of());
    Optional<String> backend = engine.backends().stream()
        .filter(b -> local.containsKey(b) && order.destinationKeys().containsKey(b))
        .findFirst();
    if (backend.isEmpty()) {
      return failed(request, ReasonCodes.NOT_EXPOSED, "no backend registered both regions: local "
          + local.keySet() + ", destination " + order.destinationKeys().keySet());
    }
    try {
      Peer peer = peer(backend.get(), order.destinationTransport());
      RemoteRegion remote = remotes.computeIfAbsent(order.destinationKeys().get(backend.get()),
          key -> peer.attach(RemoteKey.fromBase64(key)));
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

  private Peer peer(String backend, String transport) {
    WorkerAddress address = Arrays.stream(transport.split(","))
        .filter(s -> !s.isBlank())
        .map(WorkerAddress::fromBase64)
        .filter(a -> a.backend().equals(backend))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("the destination exports no " + backend + " address"));
    Peer peer = peers.get(address);
    if (peer == null || !peer.isUsable()) {
      peer = engine.connect(address);
      peers.put(address, peer);
    }
    return peer;
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
    remotes.values().forEach(RemoteRegion::close);
    peers.values().forEach(Peer::close);
    engine.close();
  }
}
