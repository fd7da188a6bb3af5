package io.kvfleet.control.coordinator;

import static io.kvfleet.events.ReasonCodes.INDEX_OUT_OF_RANGE;
import static io.kvfleet.events.ReasonCodes.ITEM_LENGTH_MISMATCH;
import static io.kvfleet.events.ReasonCodes.NOT_EXPOSED;
import static io.kvfleet.events.ReasonCodes.ORDER_TOO_LARGE;
import static io.kvfleet.events.ReasonCodes.UNKNOWN_REGION;

import io.kvfleet.control.protocol.OrderPart;
import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.LayoutComponent;
import io.kvfleet.events.ModelLayoutDeclared;
import io.kvfleet.events.RequestPart;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.RegionStatus;
import io.kvfleet.events.state.RegionView;
import java.util.ArrayList;
import java.util.List;

/**
 * A checked request transfer over both layouts: each part over every buffer of its component,
 * each page or slot index checked against what the buffer's region was registered with, and runs
 * of consecutive indices on both sides joined into one byte range.
 */
final class Expansion {
  private Expansion() {}

  /**
   * The fewest bytes a byte range takes in a dispatch ({@code {"sourceOffset":0,"destinationOffset":0,"length":1}}
   * and a comma), against a Kafka record's default limit: an order of more ranges than {@link #MOST_RANGES} can
   * never be dispatched, and is refused before it is built (a 20 KB request over thousands of buffers would
   * have been hundreds of MB in the coordinator's heap).
   */
  static final long MOST_RANGES = 1_047_552 / 54;

  static RequestContract.Result expand(FleetState state, ModelLayoutDeclared src, ModelLayoutDeclared dst,
      TransferRequested request) {
    long ranges = 0;
    int buffers = 0;
    for (RequestPart part : request.parts()) {
      int count = src.component(part.component()).orElseThrow().buffers();
      buffers += count;
      ranges += (long) runs(part) * count;
    }
    if (ranges > MOST_RANGES) {
      return new RequestContract.Result.Broken(ORDER_TOO_LARGE, "its order (" + buffers + " buffers, " + ranges
          + " byte ranges) cannot be dispatched: a Kafka record holds at most " + MOST_RANGES + " byte ranges; split"
          + " it into smaller requests");
    }
    var sourceBackends = state.peer(request.sourceNode()).orElseThrow().capabilities().stream()
        .filter(BackendCapability::available).map(BackendCapability::backend).toList();
    List<OrderPart> parts = new ArrayList<>();
    for (RequestPart part : request.parts()) {
      LayoutComponent s = src.component(part.component()).orElseThrow();
      LayoutComponent d = dst.component(part.component()).orElseThrow();
      for (int b = 0; b < s.buffers(); b++) {
        String where = "component '" + s.name() + "' buffer " + b + " (layer " + s.layers().get(b) + ")";
        var from = region(state, src.nodeId(), s.regionIds().get(b), where);
        var to = region(state, dst.nodeId(), d.regionIds().get(b), where);
        if (from instanceof Found.Not n) {
          return n.broken();
        }
        if (to instanceof Found.Not n) {
          return n.broken();
        }
        var fromView = ((Found.Live) from).view();
        var toView = ((Found.Live) to).view();
        var problem = indices(part.sourceIndices(), fromView, s, src.nodeId(), where, "source")
            .or(() -> indices(part.destinationIndices(), toView, d, dst.nodeId(), where, "destination"));
        if (problem.isPresent()) {
          return problem.get();
        }
        boolean exposed = toView.remoteKeys().keySet().stream().anyMatch(sourceBackends::contains)
            && fromView.remoteKeys().keySet().stream().anyMatch(sourceBackends::contains);
        if (!exposed) {
          return new RequestContract.Result.Broken(NOT_EXPOSED, where + ": destination " + toView.regionId()
              + " is registered with " + toView.remoteKeys().keySet() + ", source node " + src.nodeId() + " has "
              + sourceBackends);
        }
        parts.add(new OrderPart(s.name(), b, fromView.spec(), toView.spec(), toView.remoteKeys(),
            ranges(part, s.itemLength())));
      }
    }
    return new RequestContract.Result.Expanded(parts);
  }

  /** How many ranges {@link #ranges} makes of {@code part}: its runs of consecutive index pairs. */
  private static int runs(RequestPart part) {
    var src = part.sourceIndices();
    var dst = part.destinationIndices();
    int runs = src.isEmpty() ? 0 : 1;
    for (int i = 1; i < src.size(); i++) {
      if (src.get(i) != src.get(i - 1) + 1 || dst.get(i) != dst.get(i - 1) + 1) {
        runs++;
      }
    }
    return runs;
  }

  /** Consecutive index pairs joined into one range each. */
  static List<ByteRange> ranges(RequestPart part, long item) {
    List<ByteRange> ranges = new ArrayList<>();
    var src = part.sourceIndices();
    var dst = part.destinationIndices();
    int start = 0;
    for (int i = 1; i <= src.size(); i++) {
      boolean runs = i < src.size() && src.get(i) == src.get(i - 1) + 1 && dst.get(i) == dst.get(i - 1) + 1;
      if (!runs) {
        ranges.add(new ByteRange(src.get(start) * item, dst.get(start) * item, (i - start) * item));
        start = i;
      }
    }
    return ranges;
  }

  private sealed interface Found {
    record Live(RegionView view) implements Found {}

    record Not(RequestContract.Result.Broken broken) implements Found {}
  }

  private static Found region(FleetState state, String node, String regionId, String where) {
    var view = state.region(node, regionId);
    if (view.isEmpty() || view.get().status() != RegionStatus.LIVE) {
      boolean stale = state.isStale(node, regionId);
      return new Found.Not(new RequestContract.Result.Broken(UNKNOWN_REGION, where + ": region " + regionId + " of "
          + node + (stale ? " belongs to an older epoch; it is stale" : " is not registered at its current epoch"),
          !stale));
    }
    return new Found.Live(view.get());
  }

  private static java.util.Optional<RequestContract.Result.Broken> indices(List<Integer> indices, RegionView region,
      LayoutComponent c, String node, String where, String side) {
    long registeredItem = region.spec().itemSize();
    if (registeredItem > 0 && registeredItem != c.itemLength()) {
      return java.util.Optional.of(new RequestContract.Result.Broken(ITEM_LENGTH_MISMATCH, where + ": region "
          + region.regionId() + " of " + node + " was registered with item length " + registeredItem
          + " B, its layout says " + c.itemLength() + " B"));
    }
    long count = region.spec().length() / c.itemLength();
    for (int index : indices) {
      if (index < 0 || index >= count) {
        return java.util.Optional.of(new RequestContract.Result.Broken(INDEX_OUT_OF_RANGE, where + ": " + side
            + " index " + index + " is past " + node + "'s " + count + " registered " + (c.pageSize() > 1 ? "pages"
            : "slots") + " (region " + region.regionId() + ", " + region.spec().length() + " B / " + c.itemLength()
            + " B)"));
      }
    }
    return java.util.Optional.empty();
  }
}
