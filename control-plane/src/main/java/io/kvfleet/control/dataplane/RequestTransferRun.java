package io.kvfleet.control.dataplane;

import io.kvfleet.control.protocol.OrderPart;
import io.kvfleet.control.protocol.TransferOrder;
import io.kvfleet.engine.Peer;
import io.kvfleet.engine.Registration;
import io.kvfleet.engine.TransferBatch;
import io.kvfleet.engine.TransferResult;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.PartOutcome;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRequested;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.zip.CRC32C;

/**
 * Runs a request transfer's parts on the engine as one order: every part is given a backend both
 * ends registered with before any byte moves, the parts of one backend go in one native batch (one
 * batch in all when one backend holds every buffer), and the one outcome is a completion with
 * bytes and checksum per component or a failure naming the part. Runs on the agent's transfer
 * worker.
 */
final class RequestTransferRun {
  private final List<String> backends;
  private final Function<String, Map<String, Registration>> local;
  private final StagedPath.Links links;

  /**
   * @param backends the engine's backends in order of preference
   * @param local a region id's registrations on this node, by backend
   */
  RequestTransferRun(List<String> backends, Function<String, Map<String, Registration>> local, StagedPath.Links links) {
    this.backends = backends;
    this.local = local;
    this.links = links;
  }

  /** A batch of one backend's parts. */
  private record Batch(String backend, List<OrderPart> parts, List<Registration> registrations) {}

  /** Runs the order; each backend's batch is a page to {@code fence}, asked before it goes and once it completed. */
  FleetEvent run(TransferOrder order, Fence fence) {
    TransferRequested request = order.request();
    Map<String, Batch> batches = new LinkedHashMap<>();
    List<Registration> sources = new ArrayList<>();
    for (OrderPart part : order.parts()) {
      var registered = local.apply(part.source().regionId());
      var backend = backends.stream()
          .filter(b -> registered.containsKey(b) && part.destinationKeys().containsKey(b)).findFirst();
      if (backend.isEmpty()) {
        return failed(request, ReasonCodes.NOT_EXPOSED, 0, name(part) + ": no backend registered both "
            + part.source().regionId() + " " + registered.keySet() + " and " + part.destination().regionId() + " "
            + part.destinationKeys().keySet() + " (request transfers take no staged path); nothing was moved");
      }
      var batch = batches.computeIfAbsent(backend.get(), b -> new Batch(b, new ArrayList<>(), new ArrayList<>()));
      batch.parts().add(part);
      batch.registrations().add(registered.get(backend.get()));
      sources.add(registered.get(backend.get()));
    }
    long started = System.nanoTime();
    List<String> paths = new ArrayList<>();
    long landed = 0;
    for (Batch batch : batches.values()) {
      var refused = fence.before(request, () -> "the " + batch.backend() + " batch of parts " + names(batch.parts()),
          landed);
      if (refused.isPresent()) {
        return refused.get();
      }
      var failure = post(request, order.destinationTransport(), batch, paths);
      long bytes = batch.parts().stream().mapToLong(OrderPart::bytes).sum();
      if (failure != null) {
        return failure.mayHaveMoved() && !fence.landedInTime(request.deadlineMillis())
            ? LandedLate.failed(request, bytes, "at most: the " + batch.backend() + " batch of parts "
                + names(batch.parts()) + ", ended part-way (" + failure.event().reason() + ")", landed)
            : failure.event();
      }
      if (!fence.landedInTime(request.deadlineMillis())) {
        return LandedLate.failed(request, bytes, "the " + batch.backend() + " batch of parts "
            + names(batch.parts()), landed);
      }
      landed += bytes;
    }
    long nanos = System.nanoTime() - started;
    return completed(request, order, sources, nanos, String.join(", ", paths)); // one path per native batch
  }

  /** A batch's failure, and whether it may have moved some bytes before it failed. */
  private record Failure(TransferFailed event, boolean mayHaveMoved) {}

  /** Posts one batch and adds its path to {@code paths}; the failure of the whole, naming its parts, or null. */
  private Failure post(TransferRequested request, String transport, Batch batch, List<String> paths) {
    try {
      Peer peer = links.peer(batch.backend(), transport);
      var ops = new TransferBatch();
      for (int i = 0; i < batch.parts().size(); i++) {
        OrderPart part = batch.parts().get(i);
        var remote = links.remote(peer, part.destinationKeys().get(batch.backend()));
        for (ByteRange r : part.ranges()) {
          ops.add(batch.registrations().get(i), r.sourceOffset(), remote, r.destinationOffset(), r.length());
        }
      }
      return switch (peer.write(ops)) {
        case TransferResult.Completed c -> {
          paths.add(c.path());
          yield null;
        }
        case TransferResult.Failed f -> new Failure(failed(request, f.reason().name(), f.nativeCode(), "the "
            + batch.backend() + " batch of parts " + names(batch.parts()) + " failed: " + f.detail()
            + (f.nativeMessage().isEmpty() ? "" : ": " + f.nativeMessage())), LandedLate.mayHaveMoved(f.reason()));
      };
    } catch (RuntimeException e) {
      // a connect or a key that threw: nothing was posted
      return new Failure(failed(request, EngineDataPlane.reasonOf(e), 0, "the " + batch.backend() + " batch of parts "
          + names(batch.parts()) + " failed: " + e.getMessage()), false);
    }
  }

  /** One outcome per component, in the order's order; checksums over the source bytes, buffer by buffer. */
  private static TransferCompleted completed(TransferRequested request, TransferOrder order,
      List<Registration> sources, long nanos, String path) {
    Map<String, long[]> sums = new LinkedHashMap<>();
    Map<String, CRC32C> crcs = new LinkedHashMap<>();
    for (int i = 0; i < order.parts().size(); i++) {
      OrderPart part = order.parts().get(i);
      long[] sum = sums.computeIfAbsent(part.component(), c -> new long[2]);
      sum[0] += part.bytes();
      sum[1]++;
      if (request.checksum()) {
        var registration = sources.get(i);
        var memory = MemorySegment.ofAddress(registration.address()).reinterpret(registration.length());
        var crc = crcs.computeIfAbsent(part.component(), c -> new CRC32C());
        part.ranges().forEach(r -> crc.update(memory.asSlice(r.sourceOffset(), r.length()).asByteBuffer()));
      }
    }
    List<PartOutcome> outcomes = new ArrayList<>();
    sums.forEach((component, sum) -> outcomes.add(new PartOutcome(component, (int) sum[1], sum[0],
        request.checksum() ? HexFormat.of().toHexDigits((int) crcs.get(component).getValue()) : "")));
    long total = outcomes.stream().mapToLong(PartOutcome::bytes).sum();
    return new TransferCompleted(request.transferId(), request.sourceNode(), total, nanos, path, "", outcomes);
  }

  private static String name(OrderPart part) {
    return "part " + part.component() + " buffer " + part.buffer();
  }

  private static List<String> names(List<OrderPart> parts) {
    return parts.stream().map(p -> p.component() + "/" + p.buffer()).toList();
  }

  private static TransferFailed failed(TransferRequested request, String reason, long code, String detail) {
    return new TransferFailed(request.transferId(), request.sourceNode(), reason, code, detail);
  }
}
