package io.kvfleet.events.state;

import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.PeerLost;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/** The peer part of the fold: one view per node, for its current incarnation. */
final class Peers {
  private final SortedMap<String, PeerView> views = new TreeMap<>();

  /** Whether the join opened a new incarnation (an old or repeated epoch is a violation). */
  boolean joined(PeerJoined e, Applying at) {
    PeerView current = views.get(e.nodeId());
    if (current != null && e.epoch() <= current.epoch()) {
      at.violation(
          "node " + e.nodeId() + " joined at epoch " + e.epoch()
              + ", not above its current epoch " + current.epoch() + "; the join is ignored");
      return false;
    }
    views.put(
        e.nodeId(),
        new PeerView(
            e.nodeId(), e.epoch(), PeerStatus.ALIVE, e.host(), e.transportAddress(),
            e.capabilities(), at.time(), at.time(), 0));
    return true;
  }

  void heartbeat(PeerHeartbeat e, Applying at) {
    // A lost or departed incarnation stays down: the node must join again with a new epoch.
    incarnation(e.nodeId(), e.epoch(), "heartbeat", at)
        .filter(view -> view.status() == PeerStatus.ALIVE)
        .ifPresent(view -> views.put(e.nodeId(), view.withHeartbeat(at.time(), e.leaseMillis())));
  }

  /** Whether the loss ended the node's current incarnation. */
  boolean lost(PeerLost e, Applying at) {
    return end(e.nodeId(), e.epoch(), PeerStatus.LOST, at);
  }

  /** Whether the departure ended the node's current incarnation. */
  boolean left(PeerLeft e, Applying at) {
    return end(e.nodeId(), e.epoch(), PeerStatus.LEFT, at);
  }

  private boolean end(String nodeId, long epoch, PeerStatus status, Applying at) {
    var alive = incarnation(nodeId, epoch, status == PeerStatus.LOST ? "loss" : "departure", at)
        .filter(view -> view.status() == PeerStatus.ALIVE);
    alive.ifPresent(view -> views.put(nodeId, view.withStatus(status)));
    return alive.isPresent();
  }

  /** The view when {@code epoch} is the node's current one; an older epoch is simply superseded. */
  private Optional<PeerView> incarnation(String nodeId, long epoch, String what, Applying at) {
    PeerView current = views.get(nodeId);
    if (current == null) {
      at.violation(what + " of node " + nodeId + " at epoch " + epoch + ", which never joined");
      return Optional.empty();
    }
    if (epoch > current.epoch()) {
      at.violation(
          what + " of node " + nodeId + " at epoch " + epoch
              + " before it joined at that epoch (current " + current.epoch() + ")");
      return Optional.empty();
    }
    return epoch == current.epoch() ? Optional.of(current) : Optional.empty();
  }

  Optional<PeerView> peer(String nodeId) {
    return Optional.ofNullable(views.get(nodeId));
  }

  /** The node's current epoch, 0 when it never joined. */
  long currentEpoch(String nodeId) {
    PeerView view = views.get(nodeId);
    return view == null ? 0 : view.epoch();
  }

  /** Whether the node's current incarnation was lost or left (it must join again to register). */
  boolean hasEnded(String nodeId) {
    PeerView view = views.get(nodeId);
    return view != null && view.status() != PeerStatus.ALIVE;
  }

  boolean isAlive(String nodeId, long epoch) {
    PeerView view = views.get(nodeId);
    return view != null && view.epoch() == epoch && view.status() == PeerStatus.ALIVE;
  }

  List<PeerView> all() {
    return List.copyOf(views.values());
  }

  int aliveCount() {
    return (int) views.values().stream().filter(v -> v.status() == PeerStatus.ALIVE).count();
  }

  SortedMap<String, PeerView> image() {
    return new TreeMap<>(views);
  }

  void restore(SortedMap<String, PeerView> image) {
    views.putAll(image);
  }
}
