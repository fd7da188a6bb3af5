package io.kvfleet.control.coordinator;

import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.TransferStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What the coordinator has decided and the fold has not read the answer to yet, what waits for
 * node events ({@link WaitingRequests}), and what Kafka refused the answer to (decided again at
 * the next check). Each request is decided once while its answer is on its way. The coordinator
 * acts on what this answers; owned by its event loop.
 */
final class Decisions {
  private final TransferDecider decider;
  /** Requests decided here whose answer the fold has not read yet (dispatch or end). */
  private final Set<String> decided = new HashSet<>();
  /** Requests whose answer Kafka refused (the publisher's buffer was full). */
  private final Set<String> refused = new HashSet<>();
  private final WaitingRequests waiting = new WaitingRequests();
  private final Answers answers;

  Decisions(TransferDecider decider) {
    this(decider, new Answers());
  }

  /** Decisions whose rejections claim their ending in {@code answers}, shared with {@link Endings}. */
  Decisions(TransferDecider decider, Answers answers) {
    this.decider = decider;
    this.answers = answers;
  }

  /** What to do about {@code request} now; empty when it was decided already or waits for node events. */
  Optional<Decision.Action> decide(FleetState state, TransferRequested request, Instant now) {
    if (decider.isDuplicate(state, request)) {
      // answers the duplicate, not the transfer
      return decider.decide(state, request, now) instanceof Decision.Action a ? Optional.of(a) : Optional.empty();
    }
    if (answers.endedHere(request.transferId())) {
      return Optional.empty(); // ended here already (e.g. timed out) and not read back yet
    }
    if (!decided.add(request.transferId())) {
      return Optional.empty();
    }
    return switch (decider.decide(state, request, now)) {
      case Decision.Wait wait -> {
        waiting.add(request, wait, now);
        yield Optional.empty();
      }
      case Decision.Action action -> answered(state, action);
    };
  }

  /** The fold read the answer to {@code transferId}, or its partition went to another coordinator. */
  void settled(String transferId) {
    decided.remove(transferId);
  }

  /** Kafka refused the answer to {@code transferId}: it is decided again at the next {@link #due}. */
  void refused(String transferId) {
    refused.add(transferId);
  }

  /** Kafka refused the rejection of {@code transferId}: its ending is released and it is decided again. */
  void rejectionRefused(String transferId) {
    answers.released(transferId);
    refused(transferId);
  }

  /** A rejection decided here is not published after all (its partition went elsewhere). */
  void dropped(Decision.Reject reject) {
    if (ends(reject)) {
      answers.released(reject.event().transferId());
    }
    decided.remove(reject.event().transferId());
  }

  /** Waiting requests that node events now explain, or whose grace ran out. */
  List<Decision.Action> waitingDue(FleetState state, Instant now) {
    List<Decision.Action> due = new ArrayList<>();
    if (!waiting.isEmpty()) {
      waiting.retry(decider, state, now).forEach(d -> answered(state, d).ifPresent(due::add));
    }
    return due;
  }

  /**
   * What is due at a check: {@link #waitingDue}, and the requests whose answer Kafka refused, if
   * they are still requested and {@code owns} their source node.
   */
  List<Decision.Action> due(FleetState state, Predicate<String> owns, Instant now) {
    List<Decision.Action> due = waitingDue(state, now);
    var again = List.copyOf(refused);
    refused.clear();
    for (String transferId : again) {
      decided.remove(transferId);
      state.transfer(transferId).filter(t -> t.status() == TransferStatus.REQUESTED)
          .filter(t -> owns.test(t.request().sourceNode()))
          .flatMap(t -> decide(state, t.request(), now)).ifPresent(due::add);
    }
    return due;
  }

  /** Whether an answer to {@code transferId} is on its way (for tests). */
  boolean isDecided(String transferId) {
    return decided.contains(transferId);
  }

  /**
   * What to act on: a rejection only once it has claimed the transfer's ending (another path may
   * have ended it meanwhile), and a duplicate's rejection without claiming one (the ending is the
   * duplicate's, not the first request's).
   */
  private Optional<Decision.Action> answered(FleetState state, Decision.Action decision) {
    switch (decision) {
      case Decision.AlreadyAnswered a -> decided.remove(a.transferId()); // nothing of it will be folded to settle it
      case Decision.Reject r when ends(r) && !answers.claimEnd(state, r.event().transferId()) -> {
        decided.remove(r.event().transferId());
        return Optional.empty(); // ended by another path (a time-out, a peer's loss) first
      }
      case Decision.Reject r when !ends(r) -> decided.remove(r.event().transferId()); // the fold settles nothing
      default -> { }
    }
    return Optional.of(decision);
  }

  /** Whether a rejection ends its transfer: all do but a duplicate's, which answers the duplicate request. */
  private static boolean ends(Decision.Reject reject) {
    return !reject.event().reason().equals(io.kvfleet.events.ReasonCodes.DUPLICATE_TRANSFER);
  }
}
