package io.kvfleet.events.replay;

import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.PeerLost;
import java.util.ArrayList;
import java.util.List;

/**
 * One incarnation of a node as the log told it: its join, how it ended (a loss or a departure),
 * the join that replaced it, and its heartbeats.
 *
 * @param ended the {@code PeerLost} or {@code PeerLeft} of this epoch; null while it did not end
 * @param replacedBy the next epoch's {@code PeerJoined}; null while there is none
 */
record Incarnation(String nodeId, long epoch, Fact joined, Fact ended, Fact replacedBy, History.Heartbeats heartbeats) {

  /** A node's incarnations in the order they joined. */
  static List<Incarnation> of(String nodeId, History history) {
    var incarnations = new ArrayList<Incarnation>();
    for (Fact fact : history.node(nodeId)) {
      int last = incarnations.size() - 1;
      switch (fact.event()) {
        case PeerJoined j when last < 0 || j.epoch() > incarnations.get(last).epoch() -> {
          if (last >= 0) {
            incarnations.set(last, incarnations.get(last).replaced(fact));
          }
          incarnations.add(new Incarnation(nodeId, j.epoch(), fact, null, null, history.heartbeats(nodeId, j.epoch())));
        }
        case PeerLost l -> end(incarnations, l.epoch(), fact);
        case PeerLeft l -> end(incarnations, l.epoch(), fact);
        default -> {} // a repeated join (the fold ignores it) or a policy decision
      }
    }
    return incarnations;
  }

  private static void end(List<Incarnation> incarnations, long epoch, Fact fact) {
    for (int i = 0; i < incarnations.size(); i++) {
      var incarnation = incarnations.get(i);
      if (incarnation.epoch() == epoch && incarnation.ended() == null) {
        incarnations.set(i, new Incarnation(incarnation.nodeId(), epoch, incarnation.joined(), fact,
            incarnation.replacedBy(), incarnation.heartbeats()));
      }
    }
  }

  private Incarnation replaced(Fact join) {
    return new Incarnation(nodeId, epoch, joined, ended, join, heartbeats);
  }

  /** The first fact that ended it: its loss or departure, else the join that replaced it. */
  Fact endOrReplacement() {
    return ended != null ? ended : replacedBy;
  }

  /** "was lost (LEASE_EXPIRED, last heartbeat ...)", "left (SHUTDOWN)" or "was replaced", in words. */
  String howItEnded() {
    if (ended != null) {
      return switch (ended.event()) {
        case PeerLost l -> nodeId + " was lost (" + l.reason() + ", last heartbeat "
            + Text.clock(java.time.Instant.ofEpochMilli(l.lastSeenMillis())) + ")";
        case PeerLeft l -> nodeId + " left (" + l.reason() + ")";
        default -> nodeId + " ended";
      };
    }
    return replacedBy != null ? nodeId + " rejoined at epoch " + ((PeerJoined) replacedBy.event()).epoch() : "";
  }
}
