package io.kvfleet.events.replay;

import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegistrationFailed;
import io.kvfleet.events.state.PeerStatus;
import io.kvfleet.events.state.PeerView;
import java.util.ArrayList;
import java.util.List;

/**
 * One end of a transfer (node, epoch, region) seen against the node's history at a moment of the
 * replay: was the epoch it names current, and was the region registered at it?
 */
record Endpoint(String nodeId, long epoch, String regionId, List<Incarnation> incarnations, History history) {

  static Endpoint of(String nodeId, long epoch, String regionId, History history) {
    return new Endpoint(nodeId, epoch, regionId, Incarnation.of(nodeId, history), history);
  }

  /** The incarnation the transfer names, or null when the node never joined at that epoch. */
  Incarnation named() {
    return incarnations.stream().filter(i -> i.epoch() == epoch).findFirst().orElse(null);
  }

  /** Why this end was unusable at replay index {@code at}, in words; empty when it was usable. */
  String problemAt(long at) {
    Incarnation named = named();
    var atStart = history.atStart(nodeId);
    if (named == null && atStart.isPresent()) {
      return beforeTheStart(atStart.get(), at);
    }
    if (named == null) {
      return incarnations.isEmpty() ? nodeId + " had never joined"
          : "the request named " + nodeId + " epoch " + epoch + ", at which " + nodeId + " never joined (its epochs: "
              + incarnations.stream().map(i -> Long.toString(i.epoch())).toList() + ")";
    }
    Fact end = named.endOrReplacement();
    if (end != null && end.index() < at) {
      if (named.replacedBy() != null && named.replacedBy().index() < at) {
        return "region " + regionId + " on " + nodeId + " belonged to epoch " + epoch + ", which ended at "
            + Text.clock(end.time()) + " when " + named.howItEnded() + replacementClause(named, at);
      }
      return nodeId + " epoch " + epoch + ", which it named, ended at " + Text.clock(end.time()) + " when "
          + named.howItEnded() + "; no later epoch of " + nodeId + " had joined";
    }
    Fact registration = registrationBefore(epoch, at);
    if (registration == null) {
      return "region " + regionId + " was never registered on " + nodeId + " at epoch " + epoch;
    }
    if (registration.event() instanceof RegistrationFailed f) {
      return "region " + regionId + " on " + nodeId + " epoch " + epoch + " failed to register with " + f.backend()
          + ": " + f.reason();
    }
    return "";
  }

  /**
   * {@link #problemAt} for a node whose join came before the snapshot the replay started from: what
   * the snapshot knew of it, and what was folded after it (its loss or departure, or a later join).
   */
  private String beforeTheStart(PeerView atStart, long at) {
    String named = nodeId + " epoch " + epoch + ", which it named (joined before the snapshot this explanation"
        + " starts from),";
    Fact end = endAfterStart(at);
    if (end != null) {
      return named + " ended at " + Text.clock(end.time()) + " when " + nodeId + ended(end);
    }
    Fact rejoined = rejoinAfterStart(at);
    if (rejoined != null) {
      return named + " was replaced at " + Text.clock(rejoined.time()) + " when " + nodeId + " joined at epoch "
          + ((PeerJoined) rejoined.event()).epoch();
    }
    if (atStart.epoch() == epoch && atStart.status() == PeerStatus.ALIVE) {
      return ""; // alive at the epoch it named, as far as the snapshot and what follows it tell
    }
    return nodeId + " joined before the snapshot this explanation starts from, where it stood at epoch "
        + atStart.epoch() + " (" + atStart.status() + "); the request named epoch " + epoch
        + " (explain without --from-snapshots for the whole history)";
  }

  /** The loss or departure of the named epoch folded after the replay's start and before {@code at}, if any. */
  private Fact endAfterStart(long at) {
    return history.node(nodeId).stream()
        .filter(f -> f.index() < at && !ended(f).isEmpty())
        .findFirst().orElse(null);
  }

  /** " was lost (REASON)" or " left (REASON)" when {@code fact} ends the named epoch; empty otherwise. */
  private String ended(Fact fact) {
    return switch (fact.event()) {
      case PeerLost lost when lost.epoch() == epoch -> " was lost (" + lost.reason() + ")";
      case PeerLeft left when left.epoch() == epoch -> " left (" + left.reason() + ")";
      default -> "";
    };
  }

  /** The first join of a later epoch folded after the replay's start and before {@code at}, if any. */
  private Fact rejoinAfterStart(long at) {
    return incarnations.stream().map(Incarnation::joined)
        .filter(f -> f.index() < at && ((PeerJoined) f.event()).epoch() > epoch)
        .findFirst().orElse(null);
  }

  /** The facts behind {@link #problemAt}: the named join, its registration, its end, the replacement. */
  List<Fact> chainAt(long at) {
    var chain = new ArrayList<Fact>();
    Incarnation named = named();
    if (named == null) {
      if (history.atStart(nodeId).isPresent() && endAfterStart(at) != null) {
        chain.add(endAfterStart(at));
      }
      incarnations.forEach(i -> chain.add(i.joined()));
      return chain;
    }
    chain.add(named.joined());
    Fact registration = registrationBefore(epoch, at);
    if (registration != null) {
      chain.add(registration);
    }
    if (named.ended() != null) {
      chain.add(named.ended());
    }
    if (named.replacedBy() != null) {
      chain.add(named.replacedBy());
      Fact again = firstRegistration(((PeerJoined) named.replacedBy().event()).epoch());
      if (again != null) {
        chain.add(again);
      }
    }
    return chain;
  }

  private String replacementClause(Incarnation named, long at) {
    long next = ((PeerJoined) named.replacedBy().event()).epoch();
    Fact again = firstRegistration(next);
    return again == null || again.index() > at
        ? "; the replacement (epoch " + next + ", joined " + Text.clock(named.replacedBy().time())
            + ") had not registered " + regionId
        : "; the replacement registered " + regionId + " at epoch " + next + " at " + Text.clock(again.time());
  }

  /**
   * The region's registration at {@code atEpoch} before replay index {@code at}: the last backend
   * that registered it, else the last outcome (a refusal, a skip).
   */
  private Fact registrationBefore(long atEpoch, long at) {
    Fact registered = null;
    Fact other = null;
    for (Fact f : history.region(nodeId, regionId)) {
      if (f.index() < at && epochOf(f) == atEpoch) {
        if (f.event() instanceof RegionRegistered) {
          registered = f;
        } else {
          other = f;
        }
      }
    }
    return registered != null ? registered : other;
  }

  private Fact firstRegistration(long atEpoch) {
    return history.region(nodeId, regionId).stream()
        .filter(f -> f.event() instanceof RegionRegistered r && r.epoch() == atEpoch).findFirst().orElse(null);
  }

  static long epochOf(Fact fact) {
    NodeEpoch about = NodeEpoch.of(fact.event());
    return about == null ? 0 : about.epoch();
  }
}
