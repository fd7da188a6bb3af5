package io.kvfleet.events.replay;

import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegistrationDecision;
import io.kvfleet.events.RegistrationFailed;
import io.kvfleet.events.RegionSkipped;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.PeerView;
import io.kvfleet.events.state.TransferStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** A node's story: each incarnation from join to end, what it registered, and what its end cost. */
final class NodeExplainer {
  private NodeExplainer() {}

  static Explanation explain(String node, History history, FleetState state) {
    List<Incarnation> incarnations = Incarnation.of(node, history);
    if (incarnations.isEmpty() && history.atStart(node).isPresent()) {
      return beforeTheStart(node, history.atStart(node).get(), history, state);
    }
    if (incarnations.isEmpty()) {
      return new Explanation("node", node, false, "node " + node + " never joined in the log", List.of());
    }
    var cited = new ArrayList<Fact>();
    var story = new StringBuilder(node + ": " + incarnations.size() + " incarnation"
        + (incarnations.size() == 1 ? "" : "s") + ".");
    for (Incarnation i : incarnations) {
      story.append(' ').append(incarnation(i, history, state, cited));
    }
    return new Explanation("node", node, true, story + inFlight(node, state), RegionExplainer.steps(cited));
  }

  /** A node known only from the snapshot the replay started from, and its end if one was folded after it. */
  private static Explanation beforeTheStart(String node, PeerView before, History history, FleetState state) {
    var story = new StringBuilder(node + " joined before the snapshot this explanation starts from, where it stood"
        + " at epoch " + before.epoch() + " (" + before.status() + ").");
    var cited = new ArrayList<Fact>();
    for (Fact f : history.node(node)) {
      String end = switch (f.event()) {
        case PeerLost lost when lost.epoch() == before.epoch() -> "was lost (" + lost.reason() + ")";
        case PeerLeft left when left.epoch() == before.epoch() -> "left (" + left.reason() + ")";
        default -> "";
      };
      if (!end.isEmpty()) {
        story.append(" It ").append(end).append(" at ").append(Text.clock(f.time())).append('.');
        cited.add(f);
        break;
      }
    }
    story.append(" Explain without --from-snapshots for its whole history.").append(inFlight(node, state));
    return new Explanation("node", node, true, story.toString(), RegionExplainer.steps(cited));
  }

  /** " N transfers touching it are still in flight ..." when some are. */
  private static String inFlight(String node, FleetState state) {
    long inFlight = state.inFlightTouching(node).size();
    return inFlight == 0 ? "" : " " + inFlight + " transfer" + (inFlight == 1 ? " touching it is" : "s touching it are")
        + " still in flight where the replay stopped.";
  }

  private static String incarnation(Incarnation i, History history, FleetState state, List<Fact> cited) {
    cited.add(i.joined());
    var join = (PeerJoined) i.joined().event();
    var text = new StringBuilder("Epoch " + i.epoch() + " joined at " + Text.clock(i.joined().time()) + " on "
        + join.host() + unavailable(join.capabilities()) + ";");
    history.node(i.nodeId()).stream()
        .filter(f -> f.event() instanceof RegistrationDecision d && d.epoch() == i.epoch()).forEach(cited::add);
    var registered = new ArrayList<String>();
    var failed = new ArrayList<String>();
    for (String regionId : history.regionsOf(i.nodeId())) {
      for (Fact f : history.region(i.nodeId(), regionId)) {
        switch (f.event()) {
          case RegionRegistered r when r.epoch() == i.epoch() -> registered.add(regionId + " on " + r.backend());
          case RegistrationFailed r when r.epoch() == i.epoch() -> {
            failed.add(regionId + " on " + r.backend() + ": " + r.reason());
            cited.add(f);
          }
          case RegionSkipped r when r.epoch() == i.epoch() -> cited.add(f);
          default -> {}
        }
      }
    }
    text.append(" ").append(registered.size()).append(" registration").append(registered.size() == 1 ? "" : "s")
        .append(registered.isEmpty() ? "" : " (" + String.join("; ", registered) + ")");
    text.append(failed.isEmpty() ? "" : ", " + failed.size() + " refused (" + String.join("; ", failed) + ")");
    var beats = i.heartbeats();
    text.append("; ").append(beats.count()).append(" heartbeat").append(beats.count() == 1 ? "" : "s")
        .append(beats.last() == null ? "" : ", the last at " + Text.clock(beats.last()));
    if (i.ended() != null) {
      cited.add(i.ended());
      text.append("; it ended at ").append(Text.clock(i.ended().time())).append(": ").append(i.howItEnded());
      text.append(transfersItEnded(state, i));
    }
    if (i.replacedBy() != null) {
      cited.add(i.replacedBy());
      text.append(i.ended() == null ? "; it was replaced at " + Text.clock(i.replacedBy().time()) + " by epoch "
          + ((PeerJoined) i.replacedBy().event()).epoch() : "");
    } else if (i.ended() == null) {
      text.append("; it is ").append(state.peer(i.nodeId()).map(p -> p.status().name()).orElse("?"))
          .append(" where the replay stopped");
    }
    return text.append('.').toString();
  }

  private static String unavailable(List<BackendCapability> capabilities) {
    String missing = capabilities.stream().filter(c -> !c.available())
        .map(c -> c.backend() + " unavailable (" + c.detail() + ")").collect(Collectors.joining(", "));
    return missing.isEmpty() ? "" : " (" + missing + ")";
  }

  private static String transfersItEnded(FleetState state, Incarnation i) {
    return failedWith(ReasonCodes.PEER_LOST, state, i) + failedWith(ReasonCodes.PEER_LEFT, state, i);
  }

  /**
   * Transfers failed with {@code reason} because of this incarnation (the coordinator's and the
   * draining agent's details start with it), requested while it lived; not those that failed for
   * the other peer.
   */
  private static String failedWith(String reason, FleetState state, Incarnation i) {
    String cause = i.nodeId() + " epoch " + i.epoch() + " ";
    long failed = state.transfers().stream()
        .filter(t -> t.status() == TransferStatus.FAILED && reason.equals(t.reason()) && t.detail().startsWith(cause)
            && t.touches(i.nodeId()) && !t.requestedAt().isBefore(i.joined().time())
            && !t.requestedAt().isAfter(i.ended().time()))
        .count();
    return failed == 0 ? ""
        : "; " + failed + " in-flight transfer" + (failed == 1 ? "" : "s") + " failed with " + reason;
  }

}
