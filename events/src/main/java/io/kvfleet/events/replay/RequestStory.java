package io.kvfleet.events.replay;

import io.kvfleet.events.LayoutComponent;
import io.kvfleet.events.ModelLayoutDeclared;
import io.kvfleet.events.PartOutcome;
import io.kvfleet.events.RequestPart;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferRequested;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** How a request transfer's story reads: its parts, the layouts it was judged against, its ending. */
final class RequestStory {
  private RequestStory() {}

  static String layout(ModelLayoutDeclared e) {
    return e.nodeId() + " epoch " + e.epoch() + " declared layout " + e.modelId() + " TP " + e.tpRank() + "/"
        + e.tpSize() + ": " + e.components().stream().map(RequestStory::component).collect(Collectors.joining(", "));
  }

  private static String component(LayoutComponent c) {
    return c.name() + " (" + c.kind() + " " + c.memoryType() + ", " + c.buffers() + " buffers of "
        + Text.bytes(c.itemLength()) + " items, page " + c.pageSize() + ", " + c.dtype() + ")";
  }

  static String requested(TransferRequested e) {
    return e.transferId() + " requested for request " + e.requestId() + ": " + e.sourceNode() + " epoch "
        + e.sourceEpoch() + " to " + e.destinationNode() + " epoch " + e.destinationEpoch() + ", parts "
        + e.parts().stream().map(RequestStory::part).collect(Collectors.joining(", "))
        + (e.recomputed().isEmpty() ? "" : "; the destination recomputes " + e.recomputed());
  }

  private static String part(RequestPart p) {
    return p.component() + " " + p.sourceIndices() + "->" + p.destinationIndices();
  }

  static String completed(TransferCompleted e) {
    return e.transferId() + " completed: " + Text.bytes(e.bytes()) + " in "
        + String.format("%.3f ms", e.durationNanos() / 1e6) + " via " + e.path() + "; "
        + e.parts().stream().map(RequestStory::outcome).collect(Collectors.joining(", "));
  }

  private static String outcome(PartOutcome p) {
    return p.component() + " " + p.buffers() + " buffers " + Text.bytes(p.bytes())
        + (p.checksum().isEmpty() ? "" : " crc " + p.checksum());
  }

  /** The newest layout each end of the request had declared before replay index {@code at}. */
  static List<Fact> layoutsBefore(History history, TransferRequested r, long at) {
    var found = new ArrayList<Fact>();
    for (String node : List.of(r.sourceNode(), r.destinationNode())) {
      history.node(node).stream()
          .filter(f -> f.index() < at && f.event() instanceof ModelLayoutDeclared)
          .reduce((a, b) -> b).ifPresent(found::add);
    }
    return found;
  }

  /** " It was judged against ..." naming the layouts found, or that an end had declared none. */
  static String layoutsClause(List<Fact> layouts) {
    if (layouts.isEmpty()) {
      return " Neither node had declared a model layout.";
    }
    return layouts.stream().map(f -> (ModelLayoutDeclared) f.event())
        .map(l -> l.nodeId() + " serves " + l.modelId() + " TP " + l.tpRank() + "/" + l.tpSize() + " with "
            + l.components().stream().map(LayoutComponent::name).toList())
        .collect(Collectors.joining("; ", " Layouts: ", "."));
  }

  /** " Because ..." when an end's named incarnation had ended or never joined before {@code at}. */
  static String peersBecause(Endpoint source, Endpoint destination, long at, List<Fact> chain) {
    for (Endpoint end : List.of(destination, source)) {
      var named = end.named();
      var ended = named == null ? null : named.endOrReplacement();
      String problem = named == null || (ended != null && ended.index() < at) ? end.problemAt(at) : "";
      if (!problem.isEmpty()) {
        chain.addAll(end.chainAt(at));
        return " Because " + problem + ".";
      }
    }
    return "";
  }
}
