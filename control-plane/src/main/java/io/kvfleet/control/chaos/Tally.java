package io.kvfleet.control.chaos;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.TransferTimedOut;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every transfer's endings as the log holds them, counted the way the promise is stated: exactly one
 * ending from the fleet's side (an agent's report after a coordinator's verdict is a late outcome,
 * not a second ending), and no bytes moved after a failure was published.
 */
final class Tally {
  private record Ending(String producer, Instant time, boolean completed, long bytes, boolean timedOut) {}

  private final Map<String, String> sources = new HashMap<>();
  private final Map<String, Instant> requestedAt = new HashMap<>();
  private final Map<String, List<Ending>> endings = new HashMap<>();
  private final List<Instant> peerLosses = new ArrayList<>();

  void add(Envelope envelope) {
    switch (envelope.data()) {
      case TransferRequested r -> {
        sources.putIfAbsent(r.transferId(), r.sourceNode());
        requestedAt.putIfAbsent(r.transferId(), envelope.time());
      }
      case TransferCompleted c -> end(c.transferId(), envelope, true, c.bytes(), false);
      case TransferFailed f -> end(f.transferId(), envelope, false, 0, false);
      case TransferRejected r -> end(r.transferId(), envelope, false, 0, false);
      case TransferTimedOut t -> end(t.transferId(), envelope, false, 0, true);
      case PeerLost l -> peerLosses.add(envelope.time());
      default -> { } // joins, heartbeats, registrations, dispatches: no ending
    }
  }

  private void end(String transferId, Envelope envelope, boolean completed, long bytes, boolean timedOut) {
    endings.computeIfAbsent(transferId, id -> new ArrayList<>())
        .add(new Ending(envelope.producer(), envelope.time(), completed, bytes, timedOut));
  }

  /** Requests made between {@code from} and {@code to} whose first ending was a time-out: work that waited behind something. */
  long timedOutBetween(Instant from, Instant to) {
    return requestedAt.entrySet().stream()
        .filter(e -> e.getValue().isAfter(from) && e.getValue().isBefore(to))
        .filter(e -> !list(e.getKey()).isEmpty() && list(e.getKey()).getFirst().timedOut())
        .count();
  }

  int requests() {
    return sources.size();
  }

  /** Acknowledged requests the log does not hold. */
  long lost(Set<String> acknowledged) {
    return acknowledged.stream().filter(id -> !sources.containsKey(id)).count();
  }

  long endedOnce() {
    return sources.keySet().stream().filter(id -> fleetEndings(id) == 1).count();
  }

  long unended() {
    return sources.keySet().stream().filter(id -> fleetEndings(id) == 0).count();
  }

  long endedTwiceOrMore() {
    return sources.keySet().stream().filter(id -> fleetEndings(id) > 1).count();
  }

  /** Agent reports that came after a coordinator had already ended the transfer. */
  long lateOutcomes() {
    return sources.keySet().stream().mapToLong(id -> list(id).size() - fleetEndings(id)).sum();
  }

  /** Bytes the source reported moved by a completion later than a failure the fleet had published. */
  long bytesAfterFailure() {
    long bytes = 0;
    for (var id : sources.keySet()) {
      Instant failedAt = list(id).stream().filter(e -> !e.completed()).map(Ending::time).min(Instant::compareTo).orElse(null);
      if (failedAt != null) {
        bytes += list(id).stream().filter(e -> e.completed() && e.time().isAfter(failedAt)).mapToLong(Ending::bytes).sum();
      }
    }
    return bytes;
  }

  /** Up to {@code limit} transfers without exactly one ending, each with its endings, for a postmortem. */
  List<String> examples(int limit) {
    return sources.keySet().stream().filter(id -> fleetEndings(id) != 1).sorted().limit(limit)
        .map(id -> id + ": " + (list(id).isEmpty() ? "no ending" : String.join(", ", list(id).stream()
            .map(e -> (e.completed() ? "completed" : e.timedOut() ? "timed out" : "failed/rejected")
                + " by " + e.producer() + " at " + e.time()).toList())))
        .toList();
  }

  /** When peers were declared lost, in log order. */
  List<Instant> peerLosses() {
    return List.copyOf(peerLosses);
  }

  /**
   * The endings that count: the first one, and every later one except an agent's report after a
   * coordinator's verdict (or a coordinator's verdict after the agent's report: both are the race
   * the fold calls a late outcome only when they come from the two sides).
   */
  private int fleetEndings(String id) {
    var list = list(id);
    if (list.isEmpty()) {
      return 0;
    }
    String source = sources.get(id);
    boolean firstByAgent = list.getFirst().producer().equals(source);
    int counted = 1;
    for (var later : list.subList(1, list.size())) {
      boolean byAgent = later.producer().equals(source);
      if (byAgent == firstByAgent) {
        counted++; // the same side ended it twice
      } else if (firstByAgent) {
        counted++; // a coordinator ended what its agent had already ended: a second verdict
      }
    }
    return counted;
  }

  /** Every ending the log holds for {@code id}, from any side (also for a request this build could not read). */
  int endings(String id) {
    return list(id).size();
  }

  private List<Ending> list(String id) {
    return endings.getOrDefault(id, List.of());
  }
}
