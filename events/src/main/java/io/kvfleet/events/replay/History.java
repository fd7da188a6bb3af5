package io.kvfleet.events.replay;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.ModelLayoutDeclared;
import io.kvfleet.events.OpaqueEvent;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.RegionDeregistered;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSkipped;
import io.kvfleet.events.RegistrationDecision;
import io.kvfleet.events.RegistrationFailed;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.TransferTimedOut;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.PeerView;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What explanations cite, kept while a replay folds: every node's joins, losses, departures and
 * policy decisions, every region's registration outcomes, heartbeats as counts, and the events of
 * the transfers being explained (all transfers' events would cost as much as the log).
 */
final class History implements ReplayObserver {
  /** Heartbeats of one incarnation: how many, and the last. */
  record Heartbeats(long count, Instant last) {}

  private final Set<String> transfersWanted = new HashSet<>();
  private final Map<String, List<Fact>> nodes = new HashMap<>();
  private final Map<String, List<Fact>> regions = new HashMap<>();
  private final Map<String, List<Fact>> transfers = new HashMap<>();
  private final Map<String, Heartbeats> heartbeats = new HashMap<>();
  /** The nodes the state a replay started from already held (a snapshot's), as they stood there. */
  private final Map<String, PeerView> atStart = new HashMap<>();
  private long index;

  History(List<ExplainTarget> targets) {
    targets.forEach(t -> {
      if (t instanceof ExplainTarget.Transfer transfer) {
        transfersWanted.add(transfer.transferId());
      }
    });
  }

  /** The replay starts from {@code state} (a snapshot's, say): what it knew of nodes is not among the facts. */
  void startedFrom(FleetState state) {
    state.peers().forEach(p -> atStart.put(p.nodeId(), p));
  }

  /** How {@code nodeId} stood in the state the replay started from, if that state knew it. */
  Optional<PeerView> atStart(String nodeId) {
    return Optional.ofNullable(atStart.get(nodeId));
  }

  @Override
  public void after(LogRecord record, Envelope e, FleetState state) {
    index++;
    var fact = new Fact(index, e.time(), record.position(), e.producer(), e.data());
    switch (e.data()) {
      case PeerJoined p -> add(nodes, p.nodeId(), fact);
      case PeerLost p -> add(nodes, p.nodeId(), fact);
      case PeerLeft p -> add(nodes, p.nodeId(), fact);
      case RegistrationDecision p -> add(nodes, p.nodeId(), fact);
      case ModelLayoutDeclared p -> add(nodes, p.nodeId(), fact);
      case PeerHeartbeat p -> heartbeats.merge(p.nodeId() + "@" + p.epoch(), new Heartbeats(1, e.time()),
          (a, b) -> new Heartbeats(a.count() + 1, b.last()));
      case RegionRegistered r -> add(regions, regionKey(r.nodeId(), r.region().regionId()), fact);
      case RegistrationFailed r -> add(regions, regionKey(r.nodeId(), r.region().regionId()), fact);
      case RegionSkipped r -> add(regions, regionKey(r.nodeId(), r.region().regionId()), fact);
      case RegionDeregistered r -> add(regions, regionKey(r.nodeId(), r.regionId()), fact);
      case TransferRequested t -> transfer(t.transferId(), fact);
      case TransferRejected t -> transfer(t.transferId(), fact);
      case TransferDispatched t -> transfer(t.transferId(), fact);
      case TransferCompleted t -> transfer(t.transferId(), fact);
      case TransferFailed t -> transfer(t.transferId(), fact);
      case TransferTimedOut t -> transfer(t.transferId(), fact);
      case OpaqueEvent o -> {}
    }
  }

  @Override
  public void malformed(LogRecord record, Decoded.Malformed malformed) {
    index++;
  }

  /** Joins, losses, departures, decisions and layouts of a node, in replay order. */
  List<Fact> node(String nodeId) {
    return nodes.getOrDefault(nodeId, List.of());
  }

  /** Registration outcomes of one region of one node, over all its incarnations, in replay order. */
  List<Fact> region(String nodeId, String regionId) {
    return regions.getOrDefault(regionKey(nodeId, regionId), List.of());
  }

  /** The nodes that have a region with this id. */
  List<String> nodesWithRegion(String regionId) {
    return regions.keySet().stream().filter(k -> k.endsWith("/" + regionId))
        .map(k -> k.substring(0, k.length() - regionId.length() - 1)).sorted().toList();
  }

  /** The region ids of a node that have any registration outcome. */
  List<String> regionsOf(String nodeId) {
    return regions.keySet().stream().filter(k -> k.startsWith(nodeId + "/"))
        .map(k -> k.substring(nodeId.length() + 1)).sorted().toList();
  }

  /** The events of a transfer being explained, in replay order. */
  List<Fact> transfer(String transferId) {
    if (!transfersWanted.contains(transferId)) {
      throw new IllegalStateException("this replay kept no history of transfer " + transferId);
    }
    return transfers.getOrDefault(transferId, List.of());
  }

  /** Heartbeats of one incarnation. */
  Heartbeats heartbeats(String nodeId, long epoch) {
    return heartbeats.getOrDefault(nodeId + "@" + epoch, new Heartbeats(0, null));
  }

  private void transfer(String transferId, Fact fact) {
    if (transfersWanted.contains(transferId)) {
      add(transfers, transferId, fact);
    }
  }

  private static void add(Map<String, List<Fact>> facts, String key, Fact fact) {
    facts.computeIfAbsent(key, k -> new java.util.ArrayList<>()).add(fact);
  }

  private static String regionKey(String nodeId, String regionId) {
    return nodeId + "/" + regionId;
  }
}
