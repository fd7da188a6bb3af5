package io.kvfleet.control.coordinator;

import static io.kvfleet.events.ReasonCodes.BUFFER_COUNT_MISMATCH;
import static io.kvfleet.events.ReasonCodes.COMPONENT_MISSING;
import static io.kvfleet.events.ReasonCodes.COMPONENT_ONE_SIDED;
import static io.kvfleet.events.ReasonCodes.DTYPE_MISMATCH;
import static io.kvfleet.events.ReasonCodes.INDEX_COUNT_MISMATCH;
import static io.kvfleet.events.ReasonCodes.INVALID_REQUEST_FORM;
import static io.kvfleet.events.ReasonCodes.ITEM_LENGTH_MISMATCH;
import static io.kvfleet.events.ReasonCodes.MODEL_MISMATCH;
import static io.kvfleet.events.ReasonCodes.NO_LAYOUT;
import static io.kvfleet.events.ReasonCodes.PAGE_SIZE_MISMATCH;
import static io.kvfleet.events.ReasonCodes.TP_UNSUPPORTED;
import static io.kvfleet.events.ReasonCodes.UNKNOWN_COMPONENT;

import io.kvfleet.control.protocol.OrderPart;
import io.kvfleet.events.LayoutComponent;
import io.kvfleet.events.ModelLayoutDeclared;
import io.kvfleet.events.RequestPart;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.state.FleetState;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The contract check of a request transfer, before any byte moves: both nodes declared layouts of
 * the same model that map onto each other, the request names every component the destination needs
 * (or says it recomputes it), and every index lies inside what each buffer was registered with.
 * Pure: it reads the state and returns the parts to run, or why not, naming component, buffer and
 * index. Supported tensor-parallel mapping: equal TP size and rank on both nodes.
 */
final class RequestContract {
  private RequestContract() {}

  /** What the check found: the expanded parts, or the first broken term of the contract. */
  sealed interface Result {
    /** Every term holds: the request's buffers, to run as one order. */
    record Expanded(List<OrderPart> parts) implements Result {}

    /** A term is broken; {@code stateMayBeBehind} when node events not folded yet may mend it. */
    record Broken(String reason, String detail, boolean stateMayBeBehind) implements Result {
      Broken(String reason, String detail) {
        this(reason, detail, false);
      }
    }
  }

  /** Checks {@code request} (a request transfer whose peers are alive at the epochs it names). */
  static Result check(FleetState state, TransferRequested request) {
    if (request.op() != TransferOp.WRITE || !request.ranges().isEmpty() || !request.sourceRegion().isEmpty()
        || !request.destinationRegion().isEmpty()) {
      return new Result.Broken(INVALID_REQUEST_FORM, "a request transfer is a WRITE that names no regions or ranges"
          + " (the parts say what moves); this one is a " + request.op() + " naming regions '" + request.sourceRegion()
          + "' and '" + request.destinationRegion() + "' and " + request.ranges().size() + " ranges");
    }
    var source = state.layout(request.sourceNode());
    var destination = state.layout(request.destinationNode());
    if (source.isEmpty() || destination.isEmpty()) {
      String node = source.isEmpty() ? request.sourceNode() : request.destinationNode();
      return new Result.Broken(NO_LAYOUT, node + " has declared no model layout at its current epoch, so the"
          + " components of request " + request.requestId() + " cannot be checked", true);
    }
    return layouts(source.get(), destination.get(), request)
        .or(() -> parts(source.get(), destination.get(), request))
        .map(Result.class::cast)
        .orElseGet(() -> Expansion.expand(state, source.get(), destination.get(), request));
  }

  /** The layouts map onto each other: model, TP, and every component on both sides, cut alike. */
  private static Optional<Result.Broken> layouts(ModelLayoutDeclared src, ModelLayoutDeclared dst,
      TransferRequested request) {
    if (!src.modelId().equals(dst.modelId())) {
      return broken(MODEL_MISMATCH, src.nodeId() + " serves " + src.modelId() + ", " + dst.nodeId() + " serves "
          + dst.modelId());
    }
    if (src.tpSize() != dst.tpSize() || src.tpRank() != dst.tpRank()) {
      return broken(TP_UNSUPPORTED, src.nodeId() + " is TP rank " + src.tpRank() + " of " + src.tpSize() + ", "
          + dst.nodeId() + " is TP rank " + dst.tpRank() + " of " + dst.tpSize()
          + "; supported: equal TP size and rank on both nodes");
    }
    Set<String> names = new LinkedHashSet<>();
    src.components().forEach(c -> names.add(c.name()));
    dst.components().forEach(c -> names.add(c.name()));
    for (String name : names) {
      var s = src.component(name);
      var d = dst.component(name);
      if (s.isEmpty() || d.isEmpty()) {
        if (request.recomputed().contains(name)) {
          continue;
        }
        var has = s.isPresent() ? src : dst;
        var lacks = s.isPresent() ? dst : src;
        var c = s.orElseGet(d::orElseThrow);
        return broken(COMPONENT_ONE_SIDED, "component '" + name + "' (" + c.kind() + ", " + c.buffers()
            + " buffers) is in " + has.nodeId() + "'s layout but " + lacks.nodeId() + " registered no " + name
            + (c.kind() == io.kvfleet.events.RegionKind.STATE ? " state" : "") + "; " + lacks.nodeId() + " has "
            + lacks.components().stream().map(LayoutComponent::name).toList());
      }
      var mismatch = cut(s.get(), d.get(), src.nodeId(), dst.nodeId());
      if (mismatch.isPresent()) {
        return mismatch;
      }
    }
    return Optional.empty();
  }

  private static Optional<Result.Broken> cut(LayoutComponent s, LayoutComponent d, String src, String dst) {
    String of = "component '" + s.name() + "': ";
    if (s.buffers() != d.buffers()) {
      return broken(BUFFER_COUNT_MISMATCH, of + src + " has " + s.buffers() + " buffers, " + dst + " has "
          + d.buffers() + (s.buffers() > d.buffers() ? "; buffer " + d.buffers() + " (layer "
              + s.layers().get(d.buffers()) + ") has no counterpart on " + dst : ""));
    }
    for (int b = 0; b < s.buffers(); b++) {
      if (!s.layers().get(b).equals(d.layers().get(b))) {
        return broken(BUFFER_COUNT_MISMATCH, of + "buffer " + b + " holds layer " + s.layers().get(b) + " on "
            + src + " but layer " + d.layers().get(b) + " on " + dst);
      }
    }
    if (s.kind() != d.kind() || s.memoryType() != d.memoryType() || !s.dtype().equals(d.dtype())) {
      return broken(DTYPE_MISMATCH, of + src + " has " + s.kind() + " " + s.memoryType() + " " + s.dtype() + ", "
          + dst + " has " + d.kind() + " " + d.memoryType() + " " + d.dtype());
    }
    if (s.itemLength() != d.itemLength()) {
      return broken(ITEM_LENGTH_MISMATCH, of + "item length " + s.itemLength() + " B on " + src + ", "
          + d.itemLength() + " B on " + dst);
    }
    if (s.pageSize() != d.pageSize()) {
      return broken(PAGE_SIZE_MISMATCH, of + "page size " + s.pageSize() + " tokens on " + src + ", "
          + d.pageSize() + " on " + dst);
    }
    return Optional.empty();
  }

  /** The request's parts: each names a component of both layouts once, pairwise indices; none is left out. */
  private static Optional<Result.Broken> parts(ModelLayoutDeclared src, ModelLayoutDeclared dst,
      TransferRequested request) {
    Set<String> seen = new HashSet<>();
    for (RequestPart part : request.parts()) {
      if (src.component(part.component()).isEmpty() || dst.component(part.component()).isEmpty()) {
        return broken(UNKNOWN_COMPONENT, "the request names component '" + part.component() + "', which "
            + (src.component(part.component()).isEmpty() ? src.nodeId() : dst.nodeId()) + "'s layout does not have; "
            + "the layouts have " + dst.components().stream().map(LayoutComponent::name).toList());
      }
      if (!seen.add(part.component())) {
        return broken(INDEX_COUNT_MISMATCH, "the request names component '" + part.component() + "' twice");
      }
      if (part.sourceIndices().isEmpty() || part.sourceIndices().size() != part.destinationIndices().size()) {
        return broken(INDEX_COUNT_MISMATCH, "component '" + part.component() + "': " + part.sourceIndices().size()
            + " source indices and " + part.destinationIndices().size()
            + " destination indices; give at least one, pairwise");
      }
    }
    List<String> missing = new ArrayList<>();
    for (LayoutComponent c : dst.components()) {
      if (!seen.contains(c.name()) && !request.recomputed().contains(c.name())) {
        missing.add(c.name());
      }
    }
    if (!missing.isEmpty()) {
      var c = dst.component(missing.getFirst()).orElseThrow();
      return broken(COMPONENT_MISSING, dst.nodeId() + "'s layout needs component '" + c.name() + "' (" + c.kind()
          + ", " + c.buffers() + " buffers), which request " + request.requestId() + " leaves out"
          + (missing.size() > 1 ? " (so are " + missing.subList(1, missing.size()) + ")" : "")
          + "; name it, or list it under recomputed if " + dst.nodeId() + " recomputes it");
    }
    return Optional.empty();
  }

  private static Optional<Result.Broken> broken(String reason, String detail) {
    return Optional.of(new Result.Broken(reason, detail));
  }
}
