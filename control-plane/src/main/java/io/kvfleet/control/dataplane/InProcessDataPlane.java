package io.kvfleet.control.dataplane;

import io.kvfleet.control.protocol.Landings;
import io.kvfleet.control.protocol.TransferOrder;
import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionDeregistered;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSkipped;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.RegistrationFailed;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferOp;
import java.lang.foreign.MemorySegment;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32C;

/**
 * A data plane for nodes that share one JVM (the demo): regions are host memory addressed
 * directly, transfers are plain memory copies. No native library is involved; it exists so the
 * control plane runs where no engine backend does.
 */
public final class InProcessDataPlane implements DataPlane {
  static final String BACKEND = "jvm";
  private static final BackendCapability CAPABILITY = new BackendCapability(
      BACKEND, true, Runtime.version().toString(), List.of(MemoryType.DRAM), List.of("memcpy"),
      "same-JVM memory copies only; no cross-process or cross-host transport");

  private final Set<String> registered = ConcurrentHashMap.newKeySet();
  /**
   * The ranges every jvm data plane of this process registered: a transfer copies only between
   * those, so a record naming any other address (forged, or stale) moves nothing.
   */
  private static final java.util.Map<List<Long>, Integer> RANGES = new ConcurrentHashMap<>();
  private final Set<List<Long>> mine = ConcurrentHashMap.newKeySet();

  @Override
  public String transportAddress() {
    return "jvm:" + ProcessHandle.current().pid();
  }

  @Override
  public List<BackendCapability> capabilities() {
    return List.of(CAPABILITY);
  }

  @Override
  public List<FleetEvent> register(String nodeId, long epoch, RegionSpec region, String handle) {
    if (!handle.isEmpty()) {
      return List.of(failed(nodeId, epoch, region, ReasonCodes.INVALID_ADDRESS,
          "the jvm data plane takes addresses in this process, not handles like " + handle));
    }
    if (region.address() == 0 || region.length() == 0) {
      return List.of(new RegionSkipped(nodeId, epoch, region,
          region.address() == 0 ? ReasonCodes.NULL_ADDRESS : ReasonCodes.ZERO_LENGTH));
    }
    if (region.memoryType() != MemoryType.DRAM) {
      return List.of(failed(nodeId, epoch, region, ReasonCodes.MEMORY_TYPE_UNSUPPORTED,
          "register host memory, or run a node whose engine has a VRAM-capable backend"));
    }
    if (!registered.add(region.regionId())) {
      return List.of(failed(nodeId, epoch, region, ReasonCodes.DUPLICATE_REGISTRATION,
          "deregister " + region.regionId() + " first or use another region id"));
    }
    var range = List.of(region.address(), region.length());
    if (mine.add(range)) {
      RANGES.merge(range, 1, Integer::sum); // counted: two planes (an agent and its restart) may hold one range
    }
    return List.of(new RegionRegistered(nodeId, epoch, region, BACKEND, ""));
  }

  @Override
  public List<FleetEvent> deregister(String nodeId, long epoch, String regionId) {
    return registered.remove(regionId)
        ? List.of(new RegionDeregistered(nodeId, epoch, regionId, BACKEND, ReasonCodes.SHUTDOWN))
        : List.of();
  }

  @Override
  public FleetEvent transfer(TransferOrder order) {
    return transfer(order, Landings.NONE, Fence.UNFENCED);
  }

  /** Each range (each part's range) is a page to {@code fence}: asked before its copy, and after it. */
  @Override
  public FleetEvent transfer(TransferOrder order, Landings landings, Fence fence) {
    var request = order.request();
    var regions = order.parts().isEmpty() ? List.of(order.source(), order.destination())
        : order.parts().stream().flatMap(p -> java.util.stream.Stream.of(p.source(), p.destination())).toList();
    for (RegionSpec region : regions) {
      if (!RANGES.containsKey(List.of(region.address(), region.length()))) {
        return new TransferFailed(request.transferId(), request.sourceNode(), ReasonCodes.UNKNOWN_REGION, 0,
            region.regionId() + " at " + region.address() + "+" + region.length()
                + " is no range a jvm data plane of this process registered; nothing was copied");
      }
    }
    if (!order.parts().isEmpty()) {
      return InProcessParts.run(order, InProcessDataPlane::segment, BACKEND + "/memcpy", fence);
    }
    var local = segment(order.source());
    var remote = segment(order.destination());
    var crc = new CRC32C();
    long started = System.nanoTime();
    long landed = 0;
    for (ByteRange range : request.ranges()) {
      if (!range.fitsIn(local.byteSize(), remote.byteSize())) {
        return new TransferFailed(request.transferId(), request.sourceNode(),
            ReasonCodes.OUT_OF_BOUNDS, 0, "range " + range + " exceeds a region");
      }
      var refused = fence.before(request, () -> "range " + range, landed);
      if (refused.isPresent()) {
        return refused.get();
      }
      if (request.op() == TransferOp.WRITE) {
        MemorySegment.copy(local, range.sourceOffset(), remote, range.destinationOffset(), range.length());
      } else {
        MemorySegment.copy(remote, range.destinationOffset(), local, range.sourceOffset(), range.length());
      }
      if (!fence.landedInTime(request.deadlineMillis())) {
        return LandedLate.failed(request, range.length(), "range " + range, landed);
      }
      landed += range.length();
      if (request.checksum()) {
        crc.update(local.asSlice(range.sourceOffset(), range.length()).asByteBuffer());
      }
    }
    long nanos = System.nanoTime() - started;
    String checksum = request.checksum() ? HexFormat.of().toHexDigits((int) crc.getValue()) : "";
    return new TransferCompleted(request.transferId(), request.sourceNode(), request.totalBytes(),
        nanos, BACKEND + "/memcpy", checksum);
  }

  @Override
  public void close() {
    mine.forEach(range -> RANGES.computeIfPresent(range, (r, n) -> n == 1 ? null : n - 1));
    mine.clear();
    registered.clear();
  }

  private static MemorySegment segment(RegionSpec region) {
    return MemorySegment.ofAddress(region.address()).reinterpret(region.length());
  }

  private static RegistrationFailed failed(
      String nodeId, long epoch, RegionSpec region, String reason, String remediation) {
    return new RegistrationFailed(nodeId, epoch, region, BACKEND, reason,
        "the jvm data plane moves host memory within one JVM only", 0, "", CAPABILITY, remediation);
  }
}
