package io.kvfleet.control.dataplane;

import io.kvfleet.control.protocol.TransferOrder;
import io.kvfleet.control.protocol.StagedChunk;
import io.kvfleet.control.protocol.Landings;
import io.kvfleet.control.protocol.Landings.Refused;
import io.kvfleet.engine.Capability;
import io.kvfleet.engine.Admission;
import io.kvfleet.engine.Engine;
import io.kvfleet.engine.Peer;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.Registration;
import io.kvfleet.engine.RemoteRegion;
import io.kvfleet.engine.TransferBatch;
import io.kvfleet.engine.TransferResult;
import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.RegistrationFailed;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import java.lang.foreign.MemorySegment;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32C;

/**
 * The staged path of a node, for VRAM that ucx cannot register (a UCX built without CUDA, the
 * field's case): a region is offered as {@code staged} instead, and a transfer moves it chunk by
 * chunk through host buffers ucx did register. The source copies a chunk from device memory into
 * its bounce buffer; the destination's agent pulls it over ucx into its landing buffer and copies
 * it into its device memory, then answers. Either end may be plain host memory registered with
 * ucx, which skips that end's copy. The completion's path says {@code cuda/staged+ucx/...}.
 *
 * <p>Threads: {@link #send} runs on the agent's transfer worker, {@link #land} on its one landing
 * thread, so each buffer has one user; the engine is thread-safe.
 */
final class StagedPath implements AutoCloseable {
  static final String BACKEND = "staged";
  /** Bytes per chunk, and the size of each node's bounce and landing buffers. */
  static final long CHUNK = 4L << 20;

  /** The engine links the path needs: a ucx peer for a transport address, an attached remote key. */
  interface Links {
    Peer peer(String backend, String transport);

    RemoteRegion remote(Peer peer, String key);
  }

  private final Engine engine;
  /** The backend chunks travel through: the first available one that moves host memory between hosts. */
  private final Optional<String> carrier;
  private final Staging staging;
  private final Links sending;
  private final Links landing;
  /** Staged regions by id, and where each is in this process. */
  private final Map<String, Staged> regions = new ConcurrentHashMap<>();
  private Buffers bounce;
  private Buffers landingBuffer;

  private record Staged(RegionSpec spec, long address) {}

  /** A buffer and its ucx registration. */
  private record Buffers(Staging.Buffer memory, Admission admission, Registration registration) {}

  StagedPath(Engine engine, Staging staging, Links sending, Links landing) {
    this.engine = engine;
    this.carrier = engine.capabilities().stream()
        .filter(c -> c.available() && c.crossHost() && c.supports(io.kvfleet.engine.MemoryType.DRAM))
        .map(Capability::backend).findFirst();
    this.staging = staging;
    this.sending = sending;
    this.landing = landing;
  }

  /** The backend chunks travel through, if this engine has one. */
  Optional<String> carrier() {
    return carrier;
  }

  /** Why the path cannot run here, or empty: it needs a cross-host backend for host memory and a working device copy. */
  Optional<String> unavailable() {
    if (carrier.isEmpty()) {
      String absent = engine.capabilities().stream().filter(c -> !c.available())
          .map(c -> c.backend() + ": " + c.detail()).collect(java.util.stream.Collectors.joining("; "));
      return Optional.of("the staged path sends through a backend that moves host memory between hosts,"
          + " and none is available here" + (absent.isEmpty() ? "" : ": " + absent));
    }
    return staging.unavailable();
  }

  BackendCapability capability() {
    var why = unavailable();
    List<String> transports = carrier.flatMap(engine::capability).map(Capability::transports).orElse(List.of());
    return why.isEmpty()
        ? new BackendCapability(BACKEND, true, "", List.of(MemoryType.VRAM), transports,
            "VRAM copied through " + (CHUNK >> 20) + " MiB " + staging.name() + " host buffers registered with "
                + carrier.get())
        : new BackendCapability(BACKEND, false, "", List.of(), List.of(), why.get());
  }

  /**
   * Offers {@code region}, at {@code address} in this process, through the path: registered as
   * {@code staged}, or why it cannot be.
   */
  FleetEvent stage(String nodeId, long epoch, RegionSpec region, long address) {
    var why = unavailable();
    if (why.isPresent()) {
      return new RegistrationFailed(nodeId, epoch, region, BACKEND, ReasonCodes.BACKEND_UNAVAILABLE, why.get(),
          0, "", capability(), "run this node where " + staging.name() + " can copy device memory (a GPU and a"
          + " driver at least as new as the runtime), or register VRAM directly with a UCX built with CUDA");
    }
    regions.put(region.regionId(), new Staged(region, address));
    return new RegionRegistered(nodeId, epoch, region, BACKEND, BACKEND + ":" + region.regionId());
  }

  /** Whether {@code regionId} was offered here; it is no longer after this. */
  boolean withdraw(String regionId) {
    return regions.remove(regionId) != null;
  }

  boolean holds(String regionId) {
    return regions.containsKey(regionId);
  }

  /**
   * Runs a WRITE whose source is staged here or whose destination is staged there; {@code
   * sourceUcx} is the source region's registration with the {@link #carrier} when it has one. Each
   * chunk is a page to {@code fence}: asked before it starts, and once the destination answered
   * that it landed.
   */
  FleetEvent send(TransferOrder order, Optional<Registration> sourceUcx, Landings landings, Fence fence) {
    TransferRequested request = order.request();
    String ucx = carrier.orElseThrow(() -> new IllegalStateException(unavailable().orElse("no carrier")));
    if (request.op() != TransferOp.WRITE) {
      return failed(request, ReasonCodes.NOT_EXPOSED, 0, "the staged path runs WRITE transfers only: have "
          + request.destinationNode() + " write instead");
    }
    boolean toStaged = order.destinationKeys().containsKey(BACKEND);
    String destinationKey = order.destinationKeys().get(ucx);
    Staged source = regions.get(request.sourceRegion());
    if ((source == null && sourceUcx.isEmpty()) || (!toStaged && destinationKey == null)) {
      return failed(request, ReasonCodes.NOT_EXPOSED, 0, "the staged path needs each end staged or registered"
          + " with " + ucx + ": source " + (source != null ? BACKEND : sourceUcx.isPresent() ? ucx : "neither")
          + ", destination " + order.destinationKeys().keySet());
    }
    Peer peer = sending.peer(ucx, order.destinationTransport());
    String path = staging.name() + "/staged+" + peer.path();
    String self = engine.address(ucx).toBase64();
    var crc = new CRC32C();
    var batch = new TransferBatch();
    long started = System.nanoTime();
    long bytes = 0;
    long sourceLength = source != null ? source.spec().length() : sourceUcx.get().length();
    // Every range is checked before any byte is read or sent: the staged copy and the checksum read
    // the source directly. The destination's end checks each chunk as it lands.
    for (ByteRange r : request.ranges()) {
      if (!r.sourceFitsIn(sourceLength)) {
        return failed(request, ReasonCodes.OUT_OF_BOUNDS, 0, "range " + r.sourceOffset() + "+" + r.length()
            + " exceeds source " + request.sourceRegion() + " (" + sourceLength + " B)");
      }
    }
    for (ByteRange r : request.ranges()) {
      for (long done = 0; done < r.length(); done += CHUNK) {
        long n = Math.min(CHUNK, r.length() - done);
        long offset = r.sourceOffset() + done;
        var stop = fence.before(request, () -> "the chunk at source offset " + offset, bytes);
        if (stop.isPresent()) {
          return stop.get();
        }
        Registration from;
        long at;
        if (source != null) {
          from = bounce().registration();
          at = 0;
          var copied = staging.copy(from.address(), source.address() + r.sourceOffset() + done, n);
          if (copied.isPresent()) {
            return failed(request, ReasonCodes.TRANSPORT_ERROR, copied.get().code(), "staging bytes "
                + (r.sourceOffset() + done) + ".." + (r.sourceOffset() + done + n) + " of " + source.spec().regionId()
                + " into the bounce buffer: " + copied.get().message());
          }
        } else {
          from = sourceUcx.get();
          at = r.sourceOffset() + done;
        }
        if (request.checksum()) {
          crc.update(MemorySegment.ofAddress(from.address() + at).reinterpret(n).asByteBuffer());
        }
        Optional<Refused> refused = toStaged
            ? landings.land(request.destinationNode(), new StagedChunk(request.transferId(), request.sourceNode(),
                self, from.remoteKey().toBase64(), at, request.destinationRegion(), r.destinationOffset() + done, n))
            : write(peer, batch.clear().add(from, at, sending.remote(peer, destinationKey),
                r.destinationOffset() + done, n));
        if (refused.isPresent()) {
          return failed(request, refused.get().reason(), refused.get().nativeCode(), "chunk at source offset "
              + (r.sourceOffset() + done) + " (" + n + " B): " + refused.get().detail());
        }
        if (!fence.landedInTime(request.deadlineMillis())) {
          return LandedLate.failed(request, n, "the chunk at source offset " + (r.sourceOffset() + done), bytes);
        }
        bytes += n;
      }
    }
    return new TransferCompleted(request.transferId(), request.sourceNode(), bytes, System.nanoTime() - started,
        path, request.checksum() ? HexFormat.of().toHexDigits((int) crc.getValue()) : "");
  }

  /** The destination's half: pulls the chunk into the landing buffer, then into device memory. */
  Optional<Refused> land(StagedChunk chunk) {
    Staged staged = regions.get(chunk.destinationRegion());
    if (staged == null) {
      return Optional.of(new Refused(ReasonCodes.UNKNOWN_REGION, 0, "no region " + chunk.destinationRegion()
          + " is staged on this node (staged here: " + regions.keySet() + ")"));
    }
    RegionSpec region = staged.spec();
    // Written so that no sum can overflow: an offset near Long.MAX_VALUE is out of bounds, not negative.
    if (chunk.length() > CHUNK || chunk.destinationOffset() > region.length() - chunk.length()) {
      return Optional.of(new Refused(ReasonCodes.OUT_OF_BOUNDS, 0, "chunk " + chunk.destinationOffset() + "+"
          + chunk.length() + " exceeds " + region.regionId() + " (" + region.length() + " B) or the "
          + CHUNK + " B landing buffer"));
    }
    try {
      Peer peer = landing.peer(carrier.orElseThrow(), chunk.sourceTransport());
      Registration into = landingBuffer().registration();
      var pulled = read(peer, new TransferBatch().add(into, 0, landing.remote(peer, chunk.sourceKey()),
          chunk.sourceOffset(), chunk.length()));
      if (pulled.isPresent()) {
        return pulled;
      }
      return staging.copy(staged.address() + chunk.destinationOffset(), into.address(), chunk.length())
          .map(e -> new Refused(ReasonCodes.TRANSPORT_ERROR, e.code(), "landing in " + region.regionId()
              + " at offset " + chunk.destinationOffset() + ": " + e.message()));
    } catch (RuntimeException e) {
      return Optional.of(new Refused(ReasonCodes.TRANSPORT_ERROR, 0, String.valueOf(e.getMessage())));
    }
  }

  private static Optional<Refused> write(Peer peer, TransferBatch batch) {
    return refusal(peer.write(batch));
  }

  private static Optional<Refused> read(Peer peer, TransferBatch batch) {
    return refusal(peer.read(batch));
  }

  private static Optional<Refused> refusal(TransferResult result) {
    return result instanceof TransferResult.Failed f
        ? Optional.of(new Refused(ReasonCodes.TRANSPORT_ERROR, f.nativeCode(),
            f.detail() + (f.nativeMessage().isEmpty() ? "" : ": " + f.nativeMessage())))
        : Optional.empty();
  }

  private synchronized Buffers bounce() {
    if (bounce == null) {
      bounce = buffers("kvfleet-staging-bounce");
    }
    return bounce;
  }

  private synchronized Buffers landingBuffer() {
    if (landingBuffer == null) {
      landingBuffer = buffers("kvfleet-staging-landing");
    }
    return landingBuffer;
  }

  private Buffers buffers(String name) {
    Staging.Buffer memory = staging.allocate(CHUNK);
    Admission admission = engine.admit(name, memory.address(), memory.length());
    try {
      var result = engine.register(RegionRequest.dram(name, memory.address(), memory.length()));
      String ucx = carrier.orElseThrow(() -> new IllegalStateException(unavailable().orElse("no carrier")));
      Registration registration = result.registration(ucx).orElseThrow(() -> new IllegalStateException(
          ucx + " did not register the " + name + " buffer: " + result.failures()));
      return new Buffers(memory, admission, registration);
    } catch (RuntimeException e) {
      admission.close();
      memory.close();
      throw e;
    }
  }

  private static TransferFailed failed(TransferRequested request, String reason, long nativeCode, String detail) {
    return new TransferFailed(request.transferId(), request.sourceNode(), reason, nativeCode, detail);
  }

  /** Releases the buffers (the engine's close releases their registrations). */
  @Override
  public synchronized void close() {
    for (Buffers b : new Buffers[] {bounce, landingBuffer}) {
      if (b != null) {
        engine.deregister(b.registration());
        b.admission().close();
        b.memory().close();
      }
    }
    bounce = null;
    landingBuffer = null;
  }
}
