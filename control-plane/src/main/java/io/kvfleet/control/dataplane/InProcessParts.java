package io.kvfleet.control.dataplane;

import io.kvfleet.control.protocol.OrderPart;
import io.kvfleet.control.protocol.TransferOrder;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.PartOutcome;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferFailed;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.zip.CRC32C;

/**
 * A request transfer's parts as plain memory copies ({@link InProcessDataPlane}): every range is
 * checked before the first byte is copied, so a bad part fails the whole with nothing moved.
 */
final class InProcessParts {
  private InProcessParts() {}

  /** A range as a failure names it (built only when one fails: this runs per page). */
  private static String page(OrderPart part, ByteRange r) {
    return "part " + part.component() + " buffer " + part.buffer() + " range " + r;
  }

  /** Runs the parts; each range is a page to {@code fence}, asked before its copy and after it. */
  static FleetEvent run(TransferOrder order, Function<RegionSpec, MemorySegment> segment, String path, Fence fence) {
    var request = order.request();
    for (OrderPart part : order.parts()) {
      for (ByteRange r : part.ranges()) {
        if (!r.fitsIn(part.source().length(), part.destination().length())) {
          return new TransferFailed(request.transferId(), request.sourceNode(), ReasonCodes.OUT_OF_BOUNDS, 0,
              "part " + part.component() + " buffer " + part.buffer() + ": range " + r + " exceeds a region;"
                  + " nothing was moved");
        }
      }
    }
    long started = System.nanoTime();
    long landed = 0;
    Map<String, long[]> sums = new LinkedHashMap<>();
    Map<String, CRC32C> crcs = new LinkedHashMap<>();
    for (OrderPart part : order.parts()) {
      var from = segment.apply(part.source());
      var to = segment.apply(part.destination());
      var crc = crcs.computeIfAbsent(part.component(), c -> new CRC32C());
      for (ByteRange r : part.ranges()) {
        var refused = fence.before(request, () -> page(part, r), landed);
        if (refused.isPresent()) {
          return refused.get();
        }
        MemorySegment.copy(from, r.sourceOffset(), to, r.destinationOffset(), r.length());
        if (!fence.landedInTime(request.deadlineMillis())) {
          return LandedLate.failed(request, r.length(), page(part, r), landed);
        }
        landed += r.length();
        if (request.checksum()) {
          crc.update(from.asSlice(r.sourceOffset(), r.length()).asByteBuffer());
        }
      }
      long[] sum = sums.computeIfAbsent(part.component(), c -> new long[2]);
      sum[0] += part.bytes();
      sum[1]++;
    }
    long nanos = System.nanoTime() - started;
    List<PartOutcome> outcomes = new ArrayList<>();
    sums.forEach((c, sum) -> outcomes.add(new PartOutcome(c, (int) sum[1], sum[0],
        request.checksum() ? HexFormat.of().toHexDigits((int) crcs.get(c).getValue()) : "")));
    return new TransferCompleted(request.transferId(), request.sourceNode(),
        outcomes.stream().mapToLong(PartOutcome::bytes).sum(), nanos, path, "", outcomes);
  }
}
