package io.kvfleet.events.state;

import static java.util.Objects.requireNonNull;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.EventType;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.ModelLayoutDeclared;
import io.kvfleet.events.OpaqueEvent;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.ReasonCodes;
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
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The fleet as a fold of its event log. {@link #apply} is the only mutator; it does no I/O, reads
 * no clock (time comes from envelopes only) and never throws on log content: an event that breaks
 * an invariant is recorded as a {@link Violation} and otherwise handled as sensibly as it can be.
 *
 * <p>A replay keeps every transfer. A long-running fold (the coordinator's) keeps an ended transfer
 * for a window of log time ({@link #keepingEnded}) and then forgets it, so its memory is bounded
 * by the transfers of that window; folds with the same window reach the same hash.
 *
 * <p>Not thread-safe by design: one thread owns an instance (the coordinator's event loop, or a
 * replay), so there are no locks. Hand results to other threads as the immutable views it returns.
 */
public final class FleetState {
  /**
   * The version of what {@link #apply} keeps and how: bump it with any change to the fold, so that
   * snapshots written by an older fold are replayed from the log instead of trusted.
   */
  public static final int FOLD_VERSION = 9;

  /**
   * How many registration failures, skips, decisions, stale registrations and violations a fold
   * that forgets ended transfers keeps of each (the newest; all are counted). A fold that keeps
   * every transfer keeps them all.
   */
  public static final int KEPT_HISTORY = 1_000;

  /**
   * How many wire types of events it cannot read a forgetting fold counts by name; the rest, and
   * any type longer than {@link #KEPT_TYPE_LENGTH}, are counted under {@link #OTHER_TYPES}, so no
   * writer grows the coordinator's memory by naming ever new types.
   */
  public static final int KEPT_TYPES = 100;

  /** The longest wire type a forgetting fold counts by name. */
  public static final int KEPT_TYPE_LENGTH = 128;

  /** Where a forgetting fold counts the opaque events of the types it does not count by name. */
  public static final String OTHER_TYPES = "(other types)";

  /**
   * How many incarnations (epochs) of each producer a forgetting fold keeps the sequence numbers
   * of: the newest. An event of an older incarnation is not folded and is recorded as a violation
   * (that incarnation was fenced long ago), so no writer grows the fold by writing under ever new epochs.
   * Far more than a node rejoins while a coordinator catches up (it reads the topics at their own
   * speeds, so one topic can show a node's newer epochs before the other's older records come).
   */
  public static final int KEPT_EPOCHS = 256;

  private final Peers peers = new Peers();
  private final Regions regions;
  private final Transfers transfers;
  private final Sequences sequences;
  private final Layouts layouts = new Layouts();
  private final Recent<RegionSkipped> skipped;
  private final Recent<RegistrationDecision> decisions;
  private final SortedMap<String, Long> opaqueByType = new TreeMap<>();
  private final Recent<Violation> violations;
  private final boolean forgetting;
  private long applied;

  /** An empty fleet that keeps every transfer. */
  public FleetState() {
    this(Transfers.KEEP_ALL);
  }

  private FleetState(long keepEndedMillis) {
    int history = keepEndedMillis == Transfers.KEEP_ALL ? Integer.MAX_VALUE : KEPT_HISTORY;
    this.transfers = new Transfers(keepEndedMillis);
    this.regions = new Regions(history);
    this.skipped = new Recent<>(history);
    this.decisions = new Recent<>(history);
    this.violations = new Recent<>(history);
    this.forgetting = keepEndedMillis != Transfers.KEEP_ALL;
    this.sequences = new Sequences(forgetting ? KEPT_EPOCHS : Integer.MAX_VALUE);
  }

  /**
   * An empty fleet that forgets a transfer {@code keepEnded} after it ended, in log time (the time
   * of the envelope being folded): a request that repeats a forgotten transfer's id is a new transfer.
   */
  public static FleetState keepingEnded(Duration keepEnded) {
    requireNonNull(keepEnded, "keepEnded must not be null");
    if (keepEnded.isNegative()) {
      throw new IllegalArgumentException("keepEnded must not be negative, was " + keepEnded);
    }
    return new FleetState(keepEnded.toMillis());
  }

  /** How long an ended transfer is kept; empty when every transfer is kept. */
  public Optional<Duration> keepEnded() {
    long millis = transfers.keepEndedMillis();
    return millis == Transfers.KEEP_ALL ? Optional.empty() : Optional.of(Duration.ofMillis(millis));
  }

  /** The state after folding {@code log} in order into an empty fleet. */
  public static FleetState fold(Iterable<Envelope> log) {
    var state = new FleetState();
    log.forEach(state::apply);
    return state;
  }

  /** Folds one envelope; an envelope whose sequence number was seen before is counted, not folded. */
  public void apply(Envelope envelope) {
    requireNonNull(envelope, "envelope must not be null");
    applied++;
    switch (sequences.record(envelope.producer(), envelope.epoch(), envelope.sequence())) {
      case NEW -> { }
      case SEEN -> {
        return;
      }
      case OLDER_THAN_KEPT -> {
        new Applying(envelope, violations).violation("event " + envelope.id() + " of " + envelope.producer()
            + " epoch " + envelope.epoch() + ", older than the " + KEPT_EPOCHS
            + " newest epochs of that producer the fold keeps, not folded");
        return;
      }
    }
    var at = new Applying(envelope, violations);
    if (decidedByACoordinator(envelope.data())) {
      transfers.forgetEndedBefore(at.time());
    }
    switch (envelope.data()) {
      case PeerJoined e -> {
        if (peers.joined(e, at)) {
          regions.rejoined(e.nodeId(), e.epoch());
          layouts.forget(e.nodeId());
        }
      }
      case PeerHeartbeat e -> peers.heartbeat(e, at);
      case PeerLost e -> {
        if (peers.lost(e, at)) {
          regions.ended(e.nodeId(), e.epoch());
          layouts.forget(e.nodeId());
        }
      }
      case PeerLeft e -> {
        if (peers.left(e, at)) {
          regions.ended(e.nodeId(), e.epoch());
          layouts.forget(e.nodeId());
        }
      }
      case RegionRegistered e ->
          regions.registered(e, peers.currentEpoch(e.nodeId()), peers.hasEnded(e.nodeId()), at);
      case RegistrationFailed e ->
          regions.failed(e, peers.currentEpoch(e.nodeId()), peers.hasEnded(e.nodeId()), at);
      case RegionDeregistered e -> regions.deregistered(e, peers.currentEpoch(e.nodeId()), at);
      case RegionSkipped e -> skipped.add(e);
      case RegistrationDecision e -> decisions.add(e);
      case ModelLayoutDeclared e ->
          layouts.declared(e, peers.currentEpoch(e.nodeId()), peers.hasEnded(e.nodeId()), at);
      case TransferRequested e -> transfers.requested(e, at);
      case TransferDispatched e -> transfers.dispatched(e.transferId(), at);
      case TransferRejected e -> transfers.rejected(e.transferId(), e.reason(), e.detail(), at);
      case TransferCompleted e -> transfers.completed(e, at);
      case TransferFailed e ->
          transfers.ended(e.transferId(), TransferStatus.FAILED, e.reason(), e.detail(), at);
      case TransferTimedOut e ->
          transfers.ended(e.transferId(), TransferStatus.TIMED_OUT, ReasonCodes.DEADLINE_PASSED, "", at);
      case OpaqueEvent e -> opaqueByType.merge(countedType(e.wireType()), 1L, Long::sum);
    }
  }

  /**
   * Whether {@code event} is a coordinator's decision, the only events whose time moves the clock
   * a forgetting fold forgets ended transfers by. A coordinator's clock already decides deadlines
   * and leases; a node's, a router's or a forger's far-future time (or a broken clock) would
   * otherwise make every coordinator forget every ended transfer at once, and a retried request
   * would then be dispatched again.
   */
  private static boolean decidedByACoordinator(FleetEvent event) {
    return EventType.byWireName(event.wireType()).map(type -> switch (type) {
      case PEER_LOST, TRANSFER_DISPATCHED, TRANSFER_REJECTED, TRANSFER_TIMED_OUT -> true;
      default -> false;
    }).orElse(false);
  }

  private String countedType(String wireType) {
    if (!forgetting || opaqueByType.containsKey(wireType)) {
      return wireType;
    }
    return wireType.length() <= KEPT_TYPE_LENGTH && opaqueByType.size() < KEPT_TYPES - 1 ? wireType : OTHER_TYPES;
  }

  /** The current incarnation of a node, if it ever joined. */
  public Optional<PeerView> peer(String nodeId) {
    return peers.peer(nodeId);
  }

  /** Every node that ever joined, by node id. */
  public List<PeerView> peers() {
    return peers.all();
  }

  /** Whether {@code epoch} is the node's current incarnation and it is neither lost nor gone. */
  public boolean isAlive(String nodeId, long epoch) {
    return peers.isAlive(nodeId, epoch);
  }

  /** Whether {@code epoch} is older than the node's current incarnation. */
  public boolean isStaleEpoch(String nodeId, long epoch) {
    return epoch < peers.currentEpoch(nodeId);
  }

  /**
   * The region if at least one backend holds it registered at the node's current epoch; whether
   * the node is alive is {@link #isAlive}'s question.
   */
  public Optional<RegionView> region(String nodeId, String regionId) {
    return regions.live(nodeId, regionId, peers.currentEpoch(nodeId));
  }

  /** Whether the region is known only from an incarnation other than the node's current one. */
  public boolean isStale(String nodeId, String regionId) {
    return regions.isStale(nodeId, regionId);
  }

  /** Every region view, live or not, by node and region id. */
  public List<RegionView> regions() {
    return regions.all();
  }

  /**
   * Registration outcomes that named an epoch other than their node's current one, in log order
   * (the newest {@link #KEPT_HISTORY} in a fold that forgets ended transfers; {@link Counts} counts all).
   */
  public List<StaleRegistration> staleRegistrations() {
    return regions.staleRegistrations().list();
  }

  /** Registration failures in log order (the newest {@link #KEPT_HISTORY} in a forgetting fold). */
  public List<RegistrationFailed> failures() {
    return regions.failures().list();
  }

  /** Registration failures counted by reason code. */
  public SortedMap<String, Long> failuresByReason() {
    return regions.failuresByReason();
  }

  /** Regions deliberately not registered, in log order. */
  public List<RegionSkipped> skipped() {
    return skipped.list();
  }

  /** Registration policy decisions in log order (the newest {@link #KEPT_HISTORY} in a forgetting fold). */
  public List<RegistrationDecision> decisions() {
    return decisions.list();
  }

  /** The model layout the node declared at its current epoch, if it declared one and is not gone. */
  public Optional<ModelLayoutDeclared> layout(String nodeId) {
    return layouts.of(nodeId);
  }

  /** A transfer, if it was requested. */
  public Optional<TransferView> transfer(String transferId) {
    return transfers.transfer(transferId);
  }

  /** Every requested transfer the fold still holds (all of them unless it forgets ended ones), by id. */
  public List<TransferView> transfers() {
    return transfers.all();
  }

  /** Transfers requested or dispatched and not yet ended, by id. */
  public List<TransferView> inFlightTransfers() {
    return transfers.inFlight();
  }

  /** In-flight transfers that read from or write to {@code nodeId}, by id. */
  public List<TransferView> inFlightTouching(String nodeId) {
    return transfers.inFlight().stream().filter(t -> t.touches(nodeId)).toList();
  }

  /** Sequence bookkeeping per producer incarnation. */
  public List<SequenceView> sequences() {
    return sequences.views();
  }

  /** Events this build could not read, counted by wire type. */
  public SortedMap<String, Long> opaqueByType() {
    return new TreeMap<>(opaqueByType);
  }

  /** Invariant breaks in log order (the newest {@link #KEPT_HISTORY} in a forgetting fold). */
  public List<Violation> violations() {
    return violations.list();
  }

  /** Envelopes folded so far, duplicates included. */
  public long appliedCount() {
    return applied;
  }

  /** A summary of the state. */
  public Counts counts() {
    List<SequenceView> seen = sequences.views();
    return new Counts(
        applied,
        peers.all().size(),
        peers.aliveCount(),
        regions.count(RegionStatus.LIVE),
        regions.count(RegionStatus.STALE),
        regions.staleRegistrations().total(),
        regions.failures().total(),
        skipped.total(),
        decisions.total(),
        transfers.size(),
        transfers.forgotten(),
        transfers.inFlight().size(),
        transfers.count(TransferStatus.COMPLETED),
        transfers.count(TransferStatus.FAILED),
        transfers.count(TransferStatus.REJECTED),
        transfers.count(TransferStatus.TIMED_OUT),
        transfers.lateOutcomes(),
        opaqueByType.values().stream().mapToLong(Long::longValue).sum(),
        seen.stream().mapToLong(SequenceView::missing).sum(),
        seen.stream().mapToLong(SequenceView::duplicates).sum(),
        violations.total());
  }

  /**
   * Whether the log already gave this producer incarnation's {@code sequence} (a redelivery), or
   * the fold will not fold it (an incarnation older than the {@link #KEPT_EPOCHS} it keeps): either
   * way nothing is to be decided on it.
   */
  public boolean hasSeen(String producer, long epoch, long sequence) {
    return sequences.contains(producer, epoch, sequence);
  }

  /** How many transfer ends came late, after another producer's end ({@link Counts#lateOutcomes}). */
  public long lateOutcomeCount() {
    return transfers.lateOutcomes();
  }

  /** How many invariant breaks were recorded, without copying them. */
  public long violationCount() {
    return violations.total();
  }

  /** The invariant breaks recorded from the {@code from}-th on (from 0), in log order, as far as kept. */
  public List<Violation> violationsFrom(long from) {
    return violations.from(from);
  }

  /** The sequence numbers missing between those seen, per producer incarnation. */
  public List<SequenceGap> sequenceGaps() {
    return sequences.gaps();
  }

  /**
   * Every part of the state, copied: what its hash covers and a snapshot stores (for {@code
   * io.kvfleet.events.snapshot}, whose {@code StateHash} is the state's hash).
   */
  public StateImage image() {
    return new StateImage(
        applied, peers.image(), regions.viewsImage(), regions.staleRegistrations().image(), regions.staleKeys(),
        regions.failures().image(), regions.failuresByReason(), transfers.image(), transfers.keepEndedMillis(),
        transfers.forgotten(), transfers.lateOutcomes(), sequences.hashPart(), skipped.image(), decisions.image(),
        new TreeMap<>(opaqueByType), violations.image(), layouts.image());
  }

  /**
   * The state an image describes; folding on from it is folding on from the state it was taken of.
   * For {@code io.kvfleet.events.snapshot}, which checks the rebuilt state's hash before trusting it.
   */
  public static FleetState restore(StateImage image) {
    var state = new FleetState(image.keepEndedMillis());
    state.applied = image.applied();
    state.peers.restore(image.peers());
    state.regions.restore(image.regions(), image.staleRegistrations(), image.staleKeys(), image.failures(),
        image.failuresByReason());
    state.transfers.restore(image.transfers(), image.forgottenTransfers(), image.lateOutcomes());
    state.sequences.restore(image.sequences());
    state.skipped.restore(image.skipped());
    state.decisions.restore(image.decisions());
    state.opaqueByType.putAll(image.opaqueByType());
    state.violations.restore(image.violations());
    state.layouts.restore(image.layouts());
    return state;
  }
}
