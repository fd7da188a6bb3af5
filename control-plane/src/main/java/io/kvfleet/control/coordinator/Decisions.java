package io.kvfleet.control.coordinator;

import io.kvfleet.control.protocol.TransferOrder;
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

  Decisions(TransferDecider decider) {
    this.decider = decider;
  }

  /** What to do about {@code request} now; empty when it was decided already or waits for node events. */
  Optional<Decision.Action> decide(FleetState state, TransferRequested request, Instant now) {
    if (!decided.add(request.transferId())) {
      return Optional.empty();
    }
    return switch (decider.decide(state, request, now)) {
      case Decision.Wait wait -> {
        waiting.add(request, wait, now);
        yield Optional.empty();
      }
      case Decision.Action action -> Optional.of(answered(action));
    };
  }

  /** The order to send again for a dispatched request, if it is still in flight. */
  Optional<TransferOrder> reorder(FleetState state, TransferRequested request, Instant now) {
    return decider.reorder(state, request, now);
  }

  /** The fold read the answer to {@code transferId}, or its partition went to another coordinator. */
  void settled(String transferId) {
    decided.remove(transferId);
  }

  /** Kafka refused the answer to {@code transferId}: it is decided again at the next {@link #due}. */
  void refused(String transferId) {
    refused.add(transferId);
  }

  /** Waiting requests that node events now explain, or whose grace ran out. */
  List<Decision.Action> waitingDue(FleetState state, Instant now) {
    List<Decision.Action> due = new ArrayList<>();
    if (!waiting.isEmpty()) {
      waiting.retry(decider, state, now).forEach(d -> due.add(answered(d)));
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

  private Decision.Action answered(Decision.Action decision) {
    if (decision instanceof Decision.AlreadyAnswered a) {
      decided.remove(a.transferId()); // nothing of a duplicate will be folded to settle it
    }
    return decision;
  }
}
