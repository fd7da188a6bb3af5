package io.kvfleet.control.coordinator;

import static io.kvfleet.events.ReasonCodes.DEADLINE_PASSED;
import static io.kvfleet.events.ReasonCodes.DUPLICATE_TRANSFER;
import static io.kvfleet.events.ReasonCodes.NOT_EXPOSED;
import static io.kvfleet.events.ReasonCodes.OUT_OF_BOUNDS;
import static io.kvfleet.events.ReasonCodes.PEER_NOT_ALIVE;
import static io.kvfleet.events.ReasonCodes.SIZE_MISMATCH;
import static io.kvfleet.events.ReasonCodes.STALE_EPOCH;
import static io.kvfleet.events.ReasonCodes.UNKNOWN_PEER;
import static io.kvfleet.events.ReasonCodes.UNKNOWN_REGION;

import io.kvfleet.control.protocol.TransferOrder;
import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.PeerStatus;
import io.kvfleet.events.state.PeerView;
import io.kvfleet.events.state.RegionStatus;
import io.kvfleet.events.state.RegionView;
import io.kvfleet.events.state.TransferStatus;
import io.kvfleet.events.state.TransferView;
import java.time.Instant;
import java.util.Optional;
import java.util.function.BiPredicate;

/**
 * Validates a transfer request against the fleet state and decides: reject with a reason, or
 * dispatch. Pure: it reads the state, returns the events to publish, and changes nothing.
 */
final class TransferDecider {
  private final String coordinatorId;
  private final BiPredicate<String, Long> declaredLostHere;

  /** A decider that takes every peer the state shows alive for alive. */
  TransferDecider(String coordinatorId) {
    this(coordinatorId, (node, epoch) -> false);
  }

  /**
   * A decider that also takes for lost the incarnations {@code declaredLostHere} names: this
   * coordinator has published their loss, and its state has not read it back yet.
   */
  TransferDecider(String coordinatorId, BiPredicate<String, Long> declaredLostHere) {
    this.coordinatorId = coordinatorId;
    this.declaredLostHere = declaredLostHere;
  }

  Decision decide(FleetState state, TransferRequested request, Instant now) {
    var known = state.transfer(request.transferId());
    if (isDuplicate(state, request)) {
      return reject(request, DUPLICATE_TRANSFER, "transfer id " + request.transferId()
          + " is already used by a different request (" + known.orElseThrow().requestEventId() + ")");
    }
    if (known.isPresent() && known.get().status() != TransferStatus.REQUESTED) {
      return new Decision.AlreadyAnswered(request.transferId());
    }
    return validate(state, request, now);
  }

  /**
   * Whether {@code request} reuses the id of a transfer the state knows under a different request
   * (a retry of the same request is no duplicate: it is answered by the first one's answer).
   */
  boolean isDuplicate(FleetState state, TransferRequested request) {
    return state.transfer(request.transferId()).map(t -> !t.request().equals(request)).orElse(false);
  }

  private Decision validate(FleetState state, TransferRequested request, Instant now) {
    if (request.deadlineMillis() <= now.toEpochMilli()) {
      return reject(request, DEADLINE_PASSED, "deadline " + Instant.ofEpochMilli(request.deadlineMillis())
          + " passed before dispatch (now " + now + ")");
    }
    var source = peerProblem(state, request.sourceNode(), request.sourceEpoch());
    if (source.isPresent()) {
      return source.get().toDecision(request);
    }
    var destination = peerProblem(state, request.destinationNode(), request.destinationEpoch());
    if (destination.isPresent()) {
      return destination.get().toDecision(request);
    }
    if (request.requestForm()) {
      return RequestDecision.of(state, request, coordinatorId);
    }
    var unknownRegion = regionProblem(state, request.sourceNode(), request.sourceRegion())
        .or(() -> regionProblem(state, request.destinationNode(), request.destinationRegion()));
    if (unknownRegion.isPresent()) {
      return unknownRegion.get().toDecision(request);
    }
    var src = state.region(request.sourceNode(), request.sourceRegion()).orElseThrow();
    var dst = state.region(request.destinationNode(), request.destinationRegion()).orElseThrow();
    return checkRanges(request, src, dst)
        .map(problem -> problem.toDecision(request))
        .orElseGet(() -> exposure(state, request, src, dst));
  }

  private Decision exposure(FleetState state, TransferRequested request, RegionView src, RegionView dst) {
    var sourceBackends = state.peer(request.sourceNode()).orElseThrow().capabilities().stream()
        .filter(BackendCapability::available).map(BackendCapability::backend).toList();
    boolean shared = dst.remoteKeys().keySet().stream().anyMatch(sourceBackends::contains)
        && src.remoteKeys().keySet().stream().anyMatch(sourceBackends::contains);
    if (!shared) {
      return reject(request, NOT_EXPOSED, "destination " + dst.regionId() + " is registered with "
          + dst.remoteKeys().keySet() + ", source node " + request.sourceNode() + " has " + sourceBackends);
    }
    PeerView destinationPeer = state.peer(request.destinationNode()).orElseThrow();
    var order = new TransferOrder(request, src.spec(), dst.spec(), dst.remoteKeys(),
        destinationPeer.transportAddress(),
        state.transfer(request.transferId()).map(TransferView::requestEventId).orElse(""));
    return Decision.Dispatch.of(coordinatorId, order);
  }

  private static Optional<Problem> checkRanges(TransferRequested request, RegionView src, RegionView dst) {
    if (request.ranges().isEmpty()) {
      return Optional.of(new Problem(SIZE_MISMATCH, "the request names no ranges"));
    }
    long srcItem = src.spec().itemSize();
    long dstItem = dst.spec().itemSize();
    if (srcItem > 0 && dstItem > 0 && srcItem != dstItem) {
      return Optional.of(new Problem(SIZE_MISMATCH, "page sizes differ: source " + srcItem
          + " B, destination " + dstItem + " B"));
    }
    for (ByteRange r : request.ranges()) {
      if (!r.fitsIn(src.spec().length(), dst.spec().length())) {
        return Optional.of(new Problem(OUT_OF_BOUNDS, "range " + r.sourceOffset() + "+" + r.length()
            + " -> " + r.destinationOffset() + "+" + r.length() + " exceeds "
            + (r.sourceFitsIn(src.spec().length()) ? "the destination's length " + dst.spec().length()
                : "the source's length " + src.spec().length())));
      }
    }
    return Optional.empty();
  }

  private Optional<Problem> peerProblem(FleetState state, String nodeId, long epoch) {
    var peer = state.peer(nodeId);
    if (peer.isEmpty()) {
      return Optional.of(Problem.perhapsBehind(UNKNOWN_PEER, "no node " + nodeId + " has joined"));
    }
    if (peer.get().epoch() < epoch) {
      return Optional.of(Problem.perhapsBehind(UNKNOWN_PEER, "request names " + nodeId + " epoch " + epoch
          + ", which has not joined (current epoch " + peer.get().epoch() + ")"));
    }
    if (peer.get().epoch() != epoch) {
      return Optional.of(new Problem(STALE_EPOCH, "request names " + nodeId + " epoch " + epoch
          + ", current epoch is " + peer.get().epoch()));
    }
    if (peer.get().status() != PeerStatus.ALIVE) {
      return Optional.of(new Problem(PEER_NOT_ALIVE, nodeId + " epoch " + epoch + " is " + peer.get().status()));
    }
    if (declaredLostHere.test(nodeId, epoch)) {
      return Optional.of(new Problem(PEER_NOT_ALIVE, nodeId + " epoch " + epoch + " missed its lease and was"
          + " declared lost"));
    }
    return Optional.empty();
  }

  private static Optional<Problem> regionProblem(FleetState state, String nodeId, String regionId) {
    var region = state.region(nodeId, regionId);
    if (region.isPresent() && region.get().status() == RegionStatus.LIVE) {
      return Optional.empty();
    }
    if (state.isStale(nodeId, regionId)) {
      return Optional.of(new Problem(UNKNOWN_REGION,
          "region " + regionId + " of " + nodeId + " belongs to an older epoch; it is stale", false));
    }
    return Optional.of(Problem.perhapsBehind(UNKNOWN_REGION,
        "region " + regionId + " of " + nodeId + " is not registered at its current epoch"));
  }

  private Decision reject(TransferRequested request, String reason, String detail) {
    return new Decision.Reject(new TransferRejected(request.transferId(), request.sourceNode(), reason, detail));
  }

  /** Why a request fails, and whether the state may just not have read far enough to know better. */
  private record Problem(String reason, String detail, boolean stateMayBeBehind) {
    Problem(String reason, String detail) {
      this(reason, detail, false);
    }

    static Problem perhapsBehind(String reason, String detail) {
      return new Problem(reason, detail, true);
    }

    Decision toDecision(TransferRequested request) {
      var rejected = new TransferRejected(request.transferId(), request.sourceNode(), reason, detail);
      return stateMayBeBehind ? new Decision.Wait(rejected) : new Decision.Reject(rejected);
    }
  }
}
