package io.kvfleet.events.replay;

import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.RegionView;
import io.kvfleet.events.state.TransferStatus;
import io.kvfleet.events.state.TransferView;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A region's story: every registration outcome over its node's incarnations, and what transfers made of it. */
final class RegionExplainer {
  private RegionExplainer() {}

  static Explanation explain(ExplainTarget.Region target, History history, FleetState state) {
    String regionId = target.regionId();
    String node = target.nodeId();
    if (node.isEmpty()) {
      var nodes = history.nodesWithRegion(regionId);
      if (nodes.size() != 1) {
        return new Explanation("region", regionId, false, nodes.isEmpty() ? "no region " + regionId + " in the log"
            : "region " + regionId + " exists on " + String.join(", ", nodes) + ": name one as NODE/" + regionId,
            List.of());
      }
      node = nodes.getFirst();
    }
    String id = node + "/" + regionId;
    List<Fact> facts = history.region(node, regionId);
    if (facts.isEmpty()) {
      return new Explanation("region", id, false, "no region " + regionId + " of " + node + " in the log", List.of());
    }
    var cited = new ArrayList<>(facts);
    var story = new StringBuilder(now(state, node, regionId));
    for (Incarnation i : Incarnation.of(node, history)) {
      if (facts.stream().noneMatch(f -> Endpoint.epochOf(f) == i.epoch())) {
        continue;
      }
      cited.add(i.joined());
      Fact end = i.endOrReplacement();
      if (end != null) {
        cited.add(end);
        story.append(" Epoch ").append(i.epoch()).append(" of ").append(node).append(" ended at ")
            .append(Text.clock(end.time())).append(" when ").append(i.howItEnded())
            .append(i.replacedBy() == null ? "" : "; what it registered is stale from then on")
            .append('.');
      }
    }
    story.append(transfers(state, node, regionId));
    return new Explanation("region", id, true, story.toString(), steps(cited));
  }

  private static String now(FleetState state, String node, String regionId) {
    RegionView v = state.regions().stream()
        .filter(r -> r.nodeId().equals(node) && r.regionId().equals(regionId)).findFirst().orElse(null);
    if (v == null) {
      return "Region " + regionId + " of " + node + " has only stale registrations (made at an epoch "
          + node + " was not at).";
    }
    return "Region " + regionId + " of " + node + " is " + v.status() + " at epoch " + v.epoch()
        + (v.remoteKeys().isEmpty() ? "" : ", registered with " + v.remoteKeys().keySet())
        + (v.failedBackends().isEmpty() ? "" : ", refused by " + v.failedBackends()) + ".";
  }

  private static String transfers(FleetState state, String node, String regionId) {
    Map<TransferStatus, Long> byStatus = new TreeMap<>();
    Map<String, Long> rejected = new TreeMap<>();
    for (TransferView t : state.transfers()) {
      var r = t.request();
      boolean names = r.sourceNode().equals(node) && r.sourceRegion().equals(regionId)
          || r.destinationNode().equals(node) && r.destinationRegion().equals(regionId);
      if (names) {
        byStatus.merge(t.status(), 1L, Long::sum);
        if (t.status() == TransferStatus.REJECTED || t.status() == TransferStatus.FAILED) {
          rejected.merge(t.reason(), 1L, Long::sum);
        }
      }
    }
    if (byStatus.isEmpty()) {
      return " No transfer named it.";
    }
    long total = byStatus.values().stream().mapToLong(Long::longValue).sum();
    return " " + total + " transfer" + (total == 1 ? "" : "s") + " named it: " + byStatus
        + (rejected.isEmpty() ? "" : "; rejections and failures by reason: " + rejected) + ".";
  }

  static List<Explanation.Step> steps(List<Fact> facts) {
    Map<Long, Fact> byIndex = new LinkedHashMap<>();
    facts.forEach(f -> byIndex.putIfAbsent(f.index(), f));
    return byIndex.values().stream().sorted(Comparator.comparingLong(Fact::index))
        .map(f -> Explanation.Step.of(f, Describe.event(f))).toList();
  }
}
