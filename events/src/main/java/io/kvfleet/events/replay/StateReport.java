package io.kvfleet.events.replay;

import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegistrationFailed;
import io.kvfleet.events.RequestPart;
import io.kvfleet.events.snapshot.StateHash;
import io.kvfleet.events.state.Counts;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.PeerStatus;
import io.kvfleet.events.state.RegionStatus;
import io.kvfleet.events.state.RegionView;
import io.kvfleet.events.state.TransferStatus;
import io.kvfleet.events.state.TransferView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What the fleet knew at one moment, as an operator reads it: peers and their epochs, regions by
 * node and kind, registration failures grouped by reason, and the transfers in flight.
 *
 * @param position the last record folded; null when none was
 * @param time that record's timestamp; null when none was
 * @param hash {@link io.kvfleet.events.snapshot.StateHash#of}, which the coordinator reports for the same position
 * @param endedByReason the transfers the fold holds that ended without completing, by outcome and reason
 *     ({@code rejected PEER_NOT_ALIVE}): what a node's loss or a bad request cost, at a glance
 */
public record StateReport(
    LogPosition position,
    Instant time,
    String hash,
    Counts counts,
    List<Peer> peers,
    SortedMap<String, SortedMap<RegionKind, List<Region>>> regions,
    SortedMap<String, List<Failure>> failuresByReason,
    SortedMap<String, Long> endedByReason,
    List<InFlight> inFlight) {

  /** A node's current incarnation. */
  public record Peer(String nodeId, long epoch, PeerStatus status, String host, Instant joinedAt,
      Instant lastHeartbeat, List<String> unavailableBackends) {}

  /** A region as its node's latest incarnation left it. */
  public record Region(String regionId, long epoch, RegionStatus status, MemoryType memoryType, int device,
      long length, List<String> registeredWith, SortedMap<String, String> refusedBy) {}

  /** One backend's refusal of one region. */
  public record Failure(String nodeId, long epoch, String regionId, String backend, String detail, long nativeCode,
      String nativeMessage, String remediation) {}

  /**
   * A transfer requested or dispatched and not ended: {@code bytes} its ranges name; a request
   * transfer names components instead ({@code parts}; its {@code bytes} are 0, the sizes being in
   * the nodes' layouts).
   */
  public record InFlight(String transferId, TransferStatus status, String source, String destination, long bytes,
      List<String> parts, Instant requestedAt, Instant deadline) {}

  static StateReport of(FleetState state, LogPosition position, Instant time) {
    var peers = state.peers().stream().map(p -> new Peer(p.nodeId(), p.epoch(), p.status(), p.host(), p.joinedAt(),
        p.lastHeartbeat(), p.capabilities().stream().filter(c -> !c.available()).map(BackendCapability::backend)
            .toList())).toList();
    var regions = new TreeMap<String, SortedMap<RegionKind, List<Region>>>();
    for (RegionView v : state.regions()) {
      regions.computeIfAbsent(v.nodeId(), n -> new TreeMap<>())
          .computeIfAbsent(v.spec().kind(), k -> new ArrayList<>())
          .add(new Region(v.regionId(), v.epoch(), v.status(), v.spec().memoryType(), v.spec().device(),
              v.spec().length(), List.copyOf(v.remoteKeys().keySet()), v.failedBackends()));
    }
    var failures = new TreeMap<String, List<Failure>>();
    for (RegistrationFailed f : state.failures()) {
      failures.computeIfAbsent(f.reason(), r -> new ArrayList<>()).add(new Failure(f.nodeId(), f.epoch(),
          f.region().regionId(), f.backend(), f.detail(), f.nativeCode(), f.nativeMessage(), f.remediation()));
    }
    var endedByReason = new TreeMap<String, Long>();
    for (TransferView t : state.transfers()) {
      if (t.status().isTerminal() && t.status() != TransferStatus.COMPLETED) {
        endedByReason.merge(t.status().name().toLowerCase(java.util.Locale.ROOT) + " " + t.reason(), 1L, Long::sum);
      }
    }
    var inFlight = state.inFlightTransfers().stream().map(StateReport::inFlight).toList();
    return new StateReport(position, time, StateHash.of(state), state.counts(), peers, regions, failures, endedByReason,
        inFlight);
  }

  private static InFlight inFlight(TransferView t) {
    var r = t.request();
    if (r.requestForm()) {
      return new InFlight(t.transferId(), t.status(), r.sourceNode() + "@" + r.sourceEpoch(),
          r.destinationNode() + "@" + r.destinationEpoch(), r.totalBytes(),
          r.parts().stream().map(RequestPart::component).toList(), t.requestedAt(),
          Instant.ofEpochMilli(r.deadlineMillis()));
    }
    return new InFlight(t.transferId(), t.status(), r.sourceNode() + "/" + r.sourceRegion() + "@" + r.sourceEpoch(),
        r.destinationNode() + "/" + r.destinationRegion() + "@" + r.destinationEpoch(), r.totalBytes(), List.of(),
        t.requestedAt(), Instant.ofEpochMilli(r.deadlineMillis()));
  }
}
