package io.kvfleet.events.replay;

import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.TransferTimedOut;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.TransferStatus;
import io.kvfleet.events.state.TransferView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Why a transfer ended the way it did: its own events, and the history of the ends it named. */
final class TransferExplainer {
  private TransferExplainer() {}

  static Explanation explain(String id, History history, FleetState state) {
    List<Fact> facts = history.transfer(id);
    var view = state.transfer(id);
    Fact requested = facts.stream().filter(f -> f.event() instanceof TransferRequested).findFirst().orElse(null);
    if (view.isEmpty() || requested == null) {
      String summary = facts.isEmpty() ? "no transfer " + id + " in the log"
          : "transfer " + id + " has events in the log but was never requested";
      return new Explanation("transfer", id, false, summary, steps(facts, List.of()));
    }
    TransferView t = view.get();
    TransferRequested r = t.request();
    var source = Endpoint.of(r.sourceNode(), r.sourceEpoch(), r.sourceRegion(), history);
    var destination = Endpoint.of(r.destinationNode(), r.destinationEpoch(), r.destinationRegion(), history);
    // Judge the ends as they stood when the transfer ended, or at the end of the replay if it did not.
    List<Fact> ends = facts.stream().filter(TransferExplainer::isEnd).toList();
    long at = t.status().isTerminal() && !ends.isEmpty() ? ends.getFirst().index() : Long.MAX_VALUE;
    var chain = new ArrayList<Fact>();
    if (r.requestForm()) {
      chain.addAll(RequestStory.layoutsBefore(history, r, at));
      String because = t.status() == TransferStatus.COMPLETED ? ""
          : RequestStory.peersBecause(source, destination, at, chain);
      return new Explanation("transfer", id, true, outcome(t, facts) + RequestStory.layoutsClause(chain) + because
          + late(ends), steps(facts, chain));
    }
    String because = t.status() == TransferStatus.COMPLETED ? "" : because(source, destination, at, chain);
    return new Explanation("transfer", id, true, outcome(t, facts) + because + late(ends), steps(facts, chain));
  }

  /** " Later ..." for ends that came after the first, which the fold counted as late outcomes or violations. */
  private static String late(List<Fact> ends) {
    if (ends.size() < 2) {
      return "";
    }
    return ends.subList(1, ends.size()).stream()
        .map(f -> Describe.event(f) + " at " + Text.clock(f.time()))
        .collect(java.util.stream.Collectors.joining("; ", " Later, after it had ended: ", "; the first end is kept."));
  }

  /** " Because ..." for the first unusable end (destination first: it is usually the stale one). */
  private static String because(Endpoint source, Endpoint destination, long at, List<Fact> chain) {
    for (Endpoint end : List.of(destination, source)) {
      String problem = end.problemAt(at);
      if (!problem.isEmpty()) {
        chain.addAll(end.chainAt(at));
        return " Because " + problem + ".";
      }
    }
    return "";
  }

  private static String outcome(TransferView t, List<Fact> facts) {
    String id = t.transferId();
    String deadline = Text.clock(Instant.ofEpochMilli(t.request().deadlineMillis()));
    return switch (t.status()) {
      case COMPLETED -> "Transfer " + id + " completed at " + Text.clock(t.updatedAt()) + ": " + Text.bytes(t.bytes())
          + " via " + t.detail() + ".";
      case REJECTED -> "Transfer " + id + " was rejected at " + Text.clock(t.updatedAt()) + ": " + t.reason()
          + " (" + t.detail() + ").";
      case FAILED -> "Transfer " + id + " failed at " + Text.clock(t.updatedAt()) + ": " + t.reason()
          + (t.detail().isEmpty() ? "" : " (" + t.detail() + ")")
          + (ReasonCodes.PEER_LOST.equals(t.reason()) ? "; a peer it touched was lost while it was in flight" : "")
          + (ReasonCodes.PEER_LEFT.equals(t.reason()) ? "; a peer it touched left while it was in flight" : "") + ".";
      case TIMED_OUT -> "Transfer " + id + " timed out: its deadline " + deadline + " passed "
          + (facts.stream().anyMatch(f -> f.event() instanceof TransferDispatched)
              ? "after it was dispatched to " + t.request().sourceNode() + ", which had reported no outcome by then."
              : "before it was dispatched.");
      case REQUESTED, DISPATCHED -> "Transfer " + id + " is still " + t.status() + " where the replay stopped"
          + " (requested " + Text.clock(t.requestedAt()) + ", deadline " + deadline + ").";
    };
  }

  private static boolean isEnd(Fact fact) {
    return fact.event() instanceof TransferCompleted || fact.event() instanceof TransferFailed
        || fact.event() instanceof TransferTimedOut || fact.event() instanceof TransferRejected;
  }

  private static List<Explanation.Step> steps(List<Fact> own, List<Fact> chain) {
    Map<Long, Fact> byIndex = new LinkedHashMap<>();
    own.forEach(f -> byIndex.put(f.index(), f));
    chain.forEach(f -> byIndex.putIfAbsent(f.index(), f));
    return byIndex.values().stream().sorted(Comparator.comparingLong(Fact::index))
        .map(f -> Explanation.Step.of(f, Describe.event(f))).toList();
  }
}
