package io.kvfleet.control.coordinator;

import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.TransferTimedOut;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.PeerStatus;
import io.kvfleet.events.state.PeerView;
import io.kvfleet.events.state.TransferStatus;
import io.kvfleet.events.state.TransferView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What the coordinator ends on its own, so that no transfer waits on a peer that cannot answer: a
 * node whose lease ran out is declared lost and its transfers fail {@code PEER_LOST} at once; a
 * dispatched transfer whose source or destination incarnation is gone by any other way (it left,
 * another coordinator declared it lost, it restarted at a new epoch) fails {@code PEER_LEFT} or
 * {@code PEER_LOST} once {@link #GONE_GRACE_MILLIS} passed without its own outcome; a transfer past
 * its deadline times out. Each is decided once, and only by the coordinator that owns the
 * transfer's source node, so two coordinators never both end one transfer. Owned by the
 * coordinator's event loop.
 */
final class Endings {
  /** A node that joined but never heartbeat is given this long before it counts as lost. */
  static final long JOIN_GRACE_MILLIS = 10_000;
  /** How long a transfer whose peer is gone may still report its own outcome (it may be on its way). */
  static final long GONE_GRACE_MILLIS = 2_000;

  private final Set<String> lostAnnounced = new HashSet<>();
  /** What has ended, shared with {@link Decisions}: a transfer is ended by one path only. */
  private final Answers answers;
  /** Dispatched transfers with a gone peer, and when this coordinator first saw it gone. */
  private final Map<String, Long> goneSince = new HashMap<>();
  /** What Kafka refused at the last check, given again at the next. */
  private final List<FleetEvent> refused = new ArrayList<>();

  Endings() {
    this(new Answers());
  }

  /** Endings that claim each ending in {@code answers}, shared with the coordinator's {@link Decisions}. */
  Endings(Answers answers) {
    this.answers = answers;
  }

  /**
   * The events to publish now, at wall time {@code now}, for the nodes {@code owns} accepts. A lease
   * runs out only within what {@code seen} has watched of the node events: a heartbeat this
   * coordinator could not read yet is no silence.
   */
  List<FleetEvent> due(FleetState state, long now, NodesView seen, Predicate<String> owns) {
    return due(state, now, seen, Long.MAX_VALUE, owns);
  }

  /**
   * As {@link #due(FleetState, long, NodesView, Predicate)}, timing out only transfers whose
   * deadline is before {@code transfersReadUntil}, the wall time before which this coordinator
   * has folded everything in its transfer partitions: an agent's outcome that reached Kafka before
   * the deadline is read before the transfer can time out.
   */
  List<FleetEvent> due(FleetState state, long now, NodesView seen, long transfersReadUntil, Predicate<String> owns) {
    List<FleetEvent> due = new ArrayList<>();
    for (FleetEvent event : refused) {
      boolean stillDue = switch (event) {
        case TransferFailed f -> owns.test(f.sourceNode()) && inFlight(state, f.transferId());
        case TransferTimedOut t -> owns.test(t.sourceNode()) && inFlight(state, t.transferId());
        case PeerLost l -> owns.test(l.nodeId());
        default -> true;
      };
      if (stillDue) {
        due.add(event);
      }
    }
    refused.clear();
    for (PeerView peer : state.peers()) {
      if (peer.status() == PeerStatus.ALIVE && seen.outlived(leaseEnd(peer), lease(peer)) && owns.test(peer.nodeId())
          && lostAnnounced.add(peer.nodeId() + "@" + peer.epoch())) {
        due.add(new PeerLost(peer.nodeId(), peer.epoch(), ReasonCodes.LEASE_EXPIRED,
            peer.lastHeartbeat().toEpochMilli()));
        for (TransferView t : state.inFlightTouching(peer.nodeId())) {
          if (owns.test(t.request().sourceNode())) { // else its owner ends it, through the gone-peer path
            endOnce(state, t, ReasonCodes.PEER_LOST, peer.nodeId() + " epoch " + peer.epoch() + " missed its lease", due);
          }
        }
      }
    }
    for (TransferView t : state.inFlightTransfers()) {
      TransferRequested request = t.request();
      if (!owns.test(request.sourceNode()) || answers.ended(state, t.transferId())) {
        continue;
      }
      if (request.deadlineMillis() < now) {
        if (request.deadlineMillis() < transfersReadUntil && answers.claimEnd(state, t.transferId())) {
          due.add(new TransferTimedOut(t.transferId(), request.sourceNode(), request.deadlineMillis()));
        }
      } else if (t.status() == TransferStatus.DISPATCHED) {
        gone(state, request).ifPresent(why -> {
          if (now - goneSince.computeIfAbsent(t.transferId(), id -> now) >= GONE_GRACE_MILLIS) {
            endOnce(state, t, why.reason(), why.detail(), due);
          }
        });
      }
    }
    return due;
  }

  /**
   * Nothing more to remember about {@code transferId}: the fold read its end, or its partition went
   * to another coordinator (whose end this one may never read).
   */
  void ended(String transferId) {
    answers.readBack(transferId);
    goneSince.remove(transferId);
  }

  /**
   * Kafka refused {@code event}, which {@link #due} gave: the next check gives it again as it was
   * (a loss is not judged again: requests may have been rejected on it already), unless the fold
   * has read the transfer's end meanwhile or the node went to another coordinator.
   */
  void unpublished(FleetEvent event) {
    refused.add(event);
  }

  /** Whether this coordinator declared {@code nodeId} epoch {@code epoch} lost (its state may not show it yet). */
  boolean declaredLost(String nodeId, long epoch) {
    return lostAnnounced.contains(nodeId + "@" + epoch);
  }

  /** How many transfers this holds bookkeeping for (ended here, or seen with a gone peer). */
  int remembered() {
    return answers.onTheirWay() + goneSince.size();
  }

  private record Gone(String reason, String detail) {}

  /** Why a peer the request names cannot answer any more, if one cannot. */
  private static Optional<Gone> gone(FleetState state, TransferRequested request) {
    return gone(state, request.sourceNode(), request.sourceEpoch())
        .or(() -> gone(state, request.destinationNode(), request.destinationEpoch()));
  }

  private static Optional<Gone> gone(FleetState state, String nodeId, long epoch) {
    PeerView peer = state.peer(nodeId).orElse(null);
    if (peer == null) {
      return Optional.empty(); // never joined: the request could not have been dispatched
    }
    String incarnation = nodeId + " epoch " + epoch;
    if (peer.epoch() > epoch) {
      return Optional.of(new Gone(ReasonCodes.PEER_LOST, incarnation + " was replaced by epoch " + peer.epoch()));
    }
    return switch (peer.status()) {
      case ALIVE -> Optional.empty();
      case LOST -> Optional.of(new Gone(ReasonCodes.PEER_LOST, incarnation + " was declared lost"));
      case LEFT -> Optional.of(new Gone(ReasonCodes.PEER_LEFT, incarnation + " left while it was in flight"));
    };
  }

  private void endOnce(FleetState state, TransferView t, String reason, String detail, List<FleetEvent> due) {
    if (answers.claimEnd(state, t.transferId())) {
      due.add(new TransferFailed(t.transferId(), t.request().sourceNode(), reason, 0, detail));
    }
  }

  private static boolean inFlight(FleetState state, String transferId) {
    return state.transfer(transferId).map(t -> !t.status().isTerminal()).orElse(false);
  }

  private static long lease(PeerView peer) {
    return peer.leaseMillis() > 0 ? peer.leaseMillis() : JOIN_GRACE_MILLIS;
  }

  private static long leaseEnd(PeerView peer) {
    if (peer.leaseMillis() <= 0) {
      return peer.joinedAt().toEpochMilli() + JOIN_GRACE_MILLIS;
    }
    try {
      return peer.leaseExpiresAt().toEpochMilli();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE; // a lease past what epoch milliseconds can hold (e.g. Long.MAX_VALUE ms) never runs out
    }
  }
}
