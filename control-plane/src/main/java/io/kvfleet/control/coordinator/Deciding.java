package io.kvfleet.control.coordinator;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.Topics;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.TransferTimedOut;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.TransferStatus;
import io.kvfleet.events.trust.Verifier;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's deciding part without I/O: what to answer for each event the fold read and at
 * each check, over one {@link Answers} that {@link Decisions} and {@link Endings} both claim every
 * ending in. The coordinator publishes what this returns and reports back what Kafka refused; the
 * property test drives it through random interleavings. Owned by the coordinator's event loop.
 */
final class Deciding {
  private static final Logger LOG = LoggerFactory.getLogger(Deciding.class);
  private final Answers answers = new Answers();
  private long lastRefusalWarning = Long.MIN_VALUE / 2;
  private final Endings endings = new Endings(answers);
  private final Decisions decisions;
  /** Unreadable requests read and not answered yet, by transfer id, in the order they came. */
  private final Map<String, Decision.Reject> unreadable = new LinkedHashMap<>();

  /** Whether the fleet verifies (a trust file given): then only what its writer may say is answered. */
  private final Verifier verifier;

  /** Deciding for an unsigned fleet. */
  Deciding(String coordinatorId) {
    this(coordinatorId, Verifier.off());
  }

  /**
   * Deciding for a fleet {@code verifier} checks. When it is on, a request in another partition than its source
   * node's key maps to is not answered {@code MISROUTED} (the coordinator dead-letters it, {@code EVENT_MISPLACED},
   * before folding), and a record that does not decode is answered only if its bytes are a router's signed word.
   */
  Deciding(String coordinatorId, Verifier verifier) {
    this.decisions = new Decisions(new TransferDecider(coordinatorId, endings::declaredLost), answers);
    this.verifier = java.util.Objects.requireNonNull(verifier, "verifier must not be null");
  }

  /**
   * The fold has applied {@code event}, read from transfer partition {@code partition} (negative
   * for a node event): settles what it answers and, once {@code deciding}, decides a request
   * {@code ownership} gives this coordinator, or what waited for a node event. A request in
   * another partition than its source node's key hashes to is rejected {@code MISROUTED} by the
   * owner of the partition it is in, into that partition.
   */
  List<Decision.Action> read(FleetState state, FleetEvent event, int partition, boolean deciding, Ownership ownership,
      Instant now) {
    settled(event);
    if (!deciding) {
      return List.of();
    }
    return switch (event) {
      case TransferRequested r when ownership.misrouted(partition, r.sourceNode()) ->
          ownership.ownsPartition(partition) && !verifier.isOn() ? misrouted(state, r, partition) : List.of();
      case TransferRequested r when ownership.owns(r.sourceNode()) -> decide(state, r, now).stream().toList();
      case TransferRequested r -> List.of();
      default -> Topics.topicOf(event).equals(Topics.NODES) ? decisions.waitingDue(state, now) : List.of();
    };
  }

  /**
   * A request this build could not read, answered by {@code rejection}, read from transfer
   * partition {@code partition}: the rejection to publish there, once {@code deciding} and if
   * this coordinator owns that partition; until then it waits in {@link #unreadableDue}.
   */
  List<Decision.Action> unreadable(FleetState state, TransferRejected rejection, int partition, boolean deciding,
      Ownership ownership) {
    var id = rejection.transferId();
    var reject = state.transfer(id).isPresent()
        ? new Decision.Reject(new TransferRejected(id, rejection.sourceNode(), ReasonCodes.DUPLICATE_TRANSFER,
            "transfer id " + id + " is already used; this request is not readable either: " + rejection.detail()),
            partition)
        : new Decision.Reject(rejection, partition);
    unreadable.put(id, reject);
    return deciding ? unreadableDue(state, ownership) : List.of();
  }

  /** {@link #unreadable} for a record the fold could not read ({@code decoded} null: a tombstone), if it is a request. */
  List<Decision.Action> unreadable(FleetState state, Decoded decoded, int partition, boolean deciding, Ownership ownership) {
    return decoded == null ? List.of() : UnreadableRequest.answer(decoded, verifier)
        .filter(r -> !verifier.isOn() || !ownership.misrouted(partition, r.sourceNode())) // signed: answered where it belongs
        .map(r -> unreadable(state, r, partition, deciding, ownership)).orElse(List.of());
  }

  /** The unreadable requests not answered yet that this coordinator owns (called on catching up, and as they come). */
  List<Decision.Action> unreadableDue(FleetState state, Ownership ownership) {
    List<Decision.Action> due = new ArrayList<>();
    for (var it = unreadable.values().iterator(); it.hasNext(); ) {
      var reject = it.next();
      if (!ownership.ownsPartition(reject.partition())) {
        continue;
      }
      it.remove();
      if (isDuplicate(reject) || answers.claimEnd(state, reject.event().transferId())) {
        due.add(reject);
      }
    }
    return due;
  }

  /**
   * The answer to a misrouted request, into the partition it is in. One that reuses the id of a
   * transfer the fold holds from another request, or of one dispatched already, is answered as a
   * duplicate, which ends nothing: its source reads only its own partition, so an ending here would
   * leave it sending.
   */
  private List<Decision.Action> misrouted(FleetState state, TransferRequested r, int partition) {
    String where = "in transfers partition " + partition + ", but murmur2 of key '" + r.sourceNode() + "' picks another";
    var held = state.transfer(r.transferId());
    if (held.isPresent() && (held.get().status() != TransferStatus.REQUESTED || !held.get().request().equals(r))) {
      return List.of(new Decision.Reject(new TransferRejected(r.transferId(), r.sourceNode(),
          ReasonCodes.DUPLICATE_TRANSFER, "transfer id " + r.transferId() + " is already used; this request is also"
              + " misrouted: " + where), partition));
    }
    if (!answers.claimEnd(state, r.transferId())) {
      return List.of();
    }
    return List.of(new Decision.Reject(new TransferRejected(r.transferId(), r.sourceNode(), ReasonCodes.MISROUTED,
        where), partition));
  }

  private static boolean isDuplicate(Decision.Reject reject) {
    return reject.event().reason().equals(ReasonCodes.DUPLICATE_TRANSFER);
  }

  /** What to do about {@code request} now; empty when it is decided or ended already, or waits. */
  Optional<Decision.Action> decide(FleetState state, TransferRequested request, Instant now) {
    return decisions.decide(state, request, now);
  }

  /** Decisions due at a check: waiting requests, and those whose answer Kafka refused. */
  List<Decision.Action> due(FleetState state, Predicate<String> owns, Instant now) {
    return decisions.due(state, owns, now);
  }

  /** What the coordinator ends on its own at wall time {@code now} ({@link Endings#due}). */
  List<FleetEvent> endingsDue(FleetState state, long now, NodesView seen, Predicate<String> owns) {
    return endings.due(state, now, seen, owns);
  }

  /** As above, timing out only what is past its deadline in what {@code transfersReadUntil} says is read. */
  List<FleetEvent> endingsDue(FleetState state, long now, NodesView seen, long transfersReadUntil,
      Predicate<String> owns) {
    return endings.due(state, now, seen, transfersReadUntil, owns);
  }

  /** The most characters of a detail an ending keeps when the whole would not fit a Kafka record. */
  static final int KEPT_DETAIL = 4_096;

  /**
   * Publishing {@code event} failed at wall time {@code now}. Refused by the full buffer, it is
   * certainly not in Kafka: it is decided (or given) again at the next check. Refused as too large for a
   * record, it is not in Kafka either: an ending is answered again with its detail cut (what to publish
   * instead), a dispatch by a rejection ({@link #orderTooLarge}). Any other failure leaves it unknown whether
   * Kafka has it, so it is not repeated.
   */
  Optional<FleetEvent> unpublished(FleetEvent event, Throwable err, long now) {
    boolean refused = KvfleetException.isBufferFull(err);
    if (KvfleetException.isEventTooLarge(err)) {
      var smaller = switch (event) {
        case TransferRejected r when r.detail().length() > KEPT_DETAIL -> Optional.<FleetEvent>of(new TransferRejected(
            r.transferId(), r.sourceNode(), r.reason(), cut(r.detail())));
        case TransferFailed f when f.detail().length() > KEPT_DETAIL -> Optional.<FleetEvent>of(new TransferFailed(
            f.transferId(), f.sourceNode(), f.reason(), f.nativeCode(), cut(f.detail())));
        default -> Optional.<FleetEvent>empty();
      };
      if (smaller.isEmpty() && !(event instanceof TransferDispatched)) {
        LOG.error("{} for {} was not written: {}", event.wireType(), event.subject(), err.getMessage());
      }
      return smaller;
    }
    if (!refused) {
      LOG.error("publishing {} for {} failed; Kafka may or may not have it: {}", event.wireType(), event.subject(),
          err.toString());
      return Optional.empty();
    }
    if (now - lastRefusalWarning > 10_000) {
      lastRefusalWarning = now;
      LOG.warn("Kafka refused {} for {} (and may refuse more, said once in 10 s); deciding again: {}",
          event.wireType(), event.subject(), err.getMessage());
    }
    refused(event);
    return Optional.empty();
  }

  private static String cut(String detail) {
    return detail.substring(0, KEPT_DETAIL) + "... (cut from " + detail.length() + " characters: the whole would not"
        + " fit a Kafka record)";
  }

  /**
   * The dispatch {@code dispatch} is too large for a Kafka record ({@code why}), so it was never written: the
   * request is rejected {@code ORDER_TOO_LARGE} instead, with the sizes, unless another path ended it first.
   */
  Optional<Decision.Action> orderTooLarge(FleetState state, Decision.Dispatch dispatch, Throwable why) {
    var request = dispatch.order().request();
    if (!answers.claimEnd(state, request.transferId())) {
      decisions.settled(request.transferId());
      return Optional.empty();
    }
    var parts = dispatch.order().parts();
    String order = parts.isEmpty() ? request.ranges().size() + " byte ranges" : parts.size() + " buffers, "
        + parts.stream().mapToInt(p -> p.ranges().size()).sum() + " byte ranges";
    return Optional.of(new Decision.Reject(new TransferRejected(request.transferId(), request.sourceNode(),
        ReasonCodes.ORDER_TOO_LARGE, "its order (" + order + ") cannot be dispatched: " + why.getMessage()
            + "; split it into smaller requests")));
  }

  /** Kafka refused {@code event} (its buffer was full): certainly not in the log, so it is decided or given again. */
  void refused(FleetEvent event) {
    switch (event) {
      case TransferRejected r -> decisions.rejectionRefused(r.transferId());
      case TransferDispatched d -> decisions.refused(d.transferId());
      default -> endings.unpublished(event);
    }
  }

  /** A rejection decided here is not published after all: its partition went to another coordinator. */
  void dropped(Decision.Reject reject) {
    decisions.dropped(reject);
  }

  /** Forgets {@code transferId}, whose partition went to another coordinator: its end is for that one to read. */
  void handedOver(String transferId) {
    decisions.settled(transferId);
    endings.ended(transferId);
  }

  /** Whether this coordinator has ended {@code transferId}, or the fold has (for tests). */
  boolean ended(FleetState state, String transferId) {
    return answers.ended(state, transferId);
  }

  /** Drops what the fold now answers from the sets that bridge the time until it does, so they stay small. */
  private void settled(FleetEvent event) {
    switch (event) {
      case TransferDispatched d -> decisions.settled(d.transferId());
      case TransferRejected r when r.reason().equals(ReasonCodes.DUPLICATE_TRANSFER) -> { } // the duplicate's
      case TransferRejected r -> {
        unreadable.remove(r.transferId());
        handedOver(r.transferId());
      }
      case TransferCompleted c -> handedOver(c.transferId());
      case TransferFailed f -> handedOver(f.transferId());
      case TransferTimedOut t -> handedOver(t.transferId());
      default -> { } // node events and requests settle nothing here
    }
  }
}
