package io.kvfleet.control.chaos;

import io.kvfleet.control.dataplane.LandedLate;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.ReasonCodes;
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
 *
 * <p>A source reports a completion only once it proved every page landed inside its lease and
 * before the deadline ({@code LeaseFence}), else it fails the transfer {@code LANDED_AFTER_LEASE}
 * with the bytes it cannot vouch for. So a completion published after a failure moved its bytes in
 * time when that failure was one the source's proof covers (its own loss or departure, or the
 * time-out); after a failure because the destination was gone its proof says nothing, and it
 * counts as late. A source that reads the fleet's failure while it runs stops before its next page
 * ({@code ENDED_BY_FLEET}, with the bytes it had sent): those bytes count as a completion's would.
 */
final class Tally {
  /**
   * {@code bytes}: what a completion moved, what a {@code LANDED_AFTER_LEASE} failure says may have
   * landed late, or what an {@code ENDED_BY_FLEET} failure says was sent before its source stopped.
   */
  private record Ending(String producer, Instant time, boolean completed, long bytes, boolean timedOut, String how,
      long read) {
    /** A source that stopped on reading the fleet's ending: its bytes were sent as a completion's were. */
    boolean stopped() {
      return how.equals(STOPPED);
    }
  }

  private static final String STOPPED = "failed " + ReasonCodes.ENDED_BY_FLEET;

  private record Incarnation(String nodeId, long epoch) {}

  private final Map<String, String> sources = new HashMap<>();
  private final Map<String, Incarnation> destinations = new HashMap<>();
  /** When each incarnation was first gone: declared lost, left, or a later epoch of its node joined. */
  private final Map<Incarnation, Instant> goneAt = new HashMap<>();
  private final Map<String, List<Map.Entry<Long, Instant>>> joins = new HashMap<>();
  private final Map<String, Instant> requestedAt = new HashMap<>();
  private final Map<String, List<Ending>> endings = new HashMap<>();
  private final List<Instant> peerLosses = new ArrayList<>();
  /** Endings read so far: the log's order, which a producer's clock (a millisecond's resolution, skewed) is not. */
  private long read;

  void add(Envelope envelope) {
    switch (envelope.data()) {
      case TransferRequested r -> {
        sources.putIfAbsent(r.transferId(), r.sourceNode());
        destinations.putIfAbsent(r.transferId(), new Incarnation(r.destinationNode(), r.destinationEpoch()));
        requestedAt.putIfAbsent(r.transferId(), envelope.time());
      }
      case TransferCompleted c -> end(c.transferId(), envelope, true, c.bytes(), false, "completed");
      case TransferFailed f when f.reason().equals(ReasonCodes.ENDED_BY_FLEET) ->
          end(f.transferId(), envelope, false, LandedLate.sentBeforeEnded(f), false, STOPPED);
      case TransferFailed f -> end(f.transferId(), envelope, false, LandedLate.bytes(f), false, "failed " + f.reason());
      case TransferRejected r -> end(r.transferId(), envelope, false, 0, false, "rejected " + r.reason());
      case TransferTimedOut t -> end(t.transferId(), envelope, false, 0, true, "timed out");
      case PeerLost l -> {
        peerLosses.add(envelope.time());
        gone(new Incarnation(l.nodeId(), l.epoch()), envelope.time());
      }
      case PeerLeft l -> gone(new Incarnation(l.nodeId(), l.epoch()), envelope.time());
      case PeerJoined j -> joins.computeIfAbsent(j.nodeId(), n -> new ArrayList<>())
          .add(Map.entry(j.epoch(), envelope.time()));
      default -> { } // heartbeats, registrations, dispatches: no ending
    }
  }

  private void end(String transferId, Envelope envelope, boolean completed, long bytes, boolean timedOut,
      String how) {
    endings.computeIfAbsent(transferId, id -> new ArrayList<>())
        .add(new Ending(envelope.producer(), envelope.time(), completed, bytes, timedOut, how, read++));
  }

  /** How the requests ended (their first ending), counted: completed, failed or rejected with a reason, timed out. */
  java.util.SortedMap<String, Long> endedHow() {
    var how = new java.util.TreeMap<String, Long>();
    sources.keySet().stream().filter(id -> !list(id).isEmpty())
        .forEach(id -> how.merge(list(id).getFirst().how(), 1L, Long::sum));
    return how;
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

  /** Requests the source completed (the fleet must still move bytes between faults). */
  long completed() {
    return sources.keySet().stream().filter(id -> list(id).stream().anyMatch(Ending::completed)).count();
  }

  /** Acknowledged requests the log does not hold. */
  long lost(Set<String> acknowledged) {
    return acknowledged.stream().filter(id -> !sources.containsKey(id)).count();
  }

  long endedOnce() {
    return sources.keySet().stream().filter(id -> !list(id).isEmpty() && !endedTwice(id)).count();
  }

  long unended() {
    return sources.keySet().stream().filter(id -> list(id).isEmpty()).count();
  }

  long endedTwiceOrMore() {
    return sources.keySet().stream().filter(this::endedTwice).count();
  }

  /** Transfers that both sides ended: the source's report and a coordinator's verdict raced (the first is kept). */
  long lateOutcomes() {
    return sources.keySet().stream().filter(id -> byAgent(id) == 1 && byCoordinators(id) == 1).count();
  }

  /** Of {@link #lateOutcomes}, those where the coordinator's verdict came after the source's own report. */
  long verdictsAfterReport() {
    return sources.keySet().stream().filter(id -> byAgent(id) == 1 && byCoordinators(id) == 1
        && list(id).getFirst().producer().equals(sources.get(id))).count();
  }

  /**
   * Bytes that may have landed after the fleet was told their transfer failed: what sources reported
   * {@code LANDED_AFTER_LEASE}, wherever it falls in the log, and what a completion reported after a
   * failure the source's proof does not cover (its destination was gone by then). Must be 0.
   */
  long bytesMaybeLate() {
    long bytes = 0;
    for (var id : sources.keySet()) {
      bytes += list(id).stream().filter(e -> !e.completed() && !e.stopped() && e.producer().equals(sources.get(id)))
          .mapToLong(Ending::bytes).sum(); // 0 but for LANDED_AFTER_LEASE
      Ending failure = firstFailure(id);
      if (failure != null && !provenBefore(id, failure)) {
        bytes += reportedAfter(id, failure);
      }
    }
    return bytes;
  }

  /** Bytes of completions after a failure whose sources proved they landed before it: late reports, not late bytes. */
  long bytesReportedLate() {
    long bytes = 0;
    for (var id : sources.keySet()) {
      Ending failure = firstFailure(id);
      if (failure != null && provenBefore(id, failure)) {
        bytes += reportedAfter(id, failure);
      }
    }
    return bytes;
  }

  private Ending firstFailure(String id) {
    return list(id).stream().filter(e -> !e.completed()).findFirst().orElse(null); // endings are kept in log order
  }

  private long reportedAfter(String id, Ending failure) {
    // Published after it: read after it from the log. A completion stamped in the same millisecond, or by a
    // source whose clock runs behind, was still published after the failure.
    return list(id).stream().filter(e -> (e.completed() || e.stopped()) && e.read() > failure.read())
        .mapToLong(Ending::bytes).sum();
  }

  /**
   * Whether a completion's proof (inside the source's lease, before the deadline) puts its bytes
   * before {@code failure}: a time-out, or a failure while the destination incarnation was still
   * there, so one about the source itself.
   */
  private boolean provenBefore(String id, Ending failure) {
    if (failure.timedOut()) {
      return true;
    }
    if (failure.how().startsWith("rejected")) {
      return false; // never dispatched: no source ran it under any proof
    }
    Incarnation destination = destinations.get(id);
    Instant gone = goneAt.get(destination);
    boolean replaced = joins.getOrDefault(destination.nodeId(), List.of()).stream()
        .anyMatch(j -> j.getKey() > destination.epoch() && !j.getValue().isAfter(failure.time()));
    return !replaced && (gone == null || gone.isAfter(failure.time()));
  }

  private void gone(Incarnation incarnation, Instant at) {
    goneAt.merge(incarnation, at, (a, b) -> a.isBefore(b) ? a : b);
  }

  /** Up to {@code limit} transfers without exactly one ending, each with its endings, for a postmortem. */
  List<String> examples(int limit) {
    return sources.keySet().stream().filter(id -> list(id).isEmpty() || endedTwice(id)).sorted().limit(limit)
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
   * Ended twice: two endings from the coordinator side, or two from the source's agent. One of each
   * is the race the fold calls a late outcome (an agent's report and a coordinator's time-out or
   * peer verdict), which the promise allows: exactly one ending from the coordinator side.
   */
  private boolean endedTwice(String id) {
    return byCoordinators(id) > 1 || byAgent(id) > 1;
  }

  private long byAgent(String id) {
    return list(id).stream().filter(e -> e.producer().equals(sources.get(id))).count();
  }

  private long byCoordinators(String id) {
    return list(id).size() - byAgent(id);
  }

  /** Every ending the log holds for {@code id}, from any side (also for a request this build could not read). */
  int endings(String id) {
    return list(id).size();
  }

  private List<Ending> list(String id) {
    return endings.getOrDefault(id, List.of());
  }
}
