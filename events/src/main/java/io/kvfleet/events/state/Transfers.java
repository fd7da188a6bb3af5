package io.kvfleet.events.state;

import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferRequested;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The transfer part of the fold: each transfer from request to its one terminal event. A transfer
 * is forgotten {@code keepEndedMillis} of log time after it ended, so a fold that runs for months
 * holds the transfers of that window, not every one the fleet ever made.
 */
final class Transfers {
  /** Keep every ended transfer (replays, explanations). */
  static final long KEEP_ALL = Long.MAX_VALUE;

  private final long keepEndedMillis;
  // Looked up for most events, so hashed; sorted by id only when listed or imaged (a sorted map cost
  // the fold a third of its time in a state of 200,000 transfers).
  private final Map<String, TransferView> views = new HashMap<>();
  /** The ids of transfers not ended yet: an index, so deadline and lease sweeps skip the ended. */
  private final SortedSet<String> open = new TreeSet<>();
  /** Ended transfers, what to forget first at the head. Empty when every transfer is kept. */
  private final EndQueue ended = new EndQueue();
  private long forgotten;
  private long lateOutcomes;

  Transfers(long keepEndedMillis) {
    if (keepEndedMillis < 0) {
      throw new IllegalArgumentException("keepEndedMillis must be >= 0, was " + keepEndedMillis);
    }
    this.keepEndedMillis = keepEndedMillis;
  }

  private void put(String transferId, TransferView view) {
    views.put(transferId, view);
    if (view.status().isTerminal()) {
      open.remove(transferId);
      if (keepEndedMillis != KEEP_ALL) {
        ended.add(view.updatedAt().toEpochMilli(), transferId);
      }
    } else {
      open.add(transferId);
    }
  }

  /**
   * Forgets the transfers that ended more than the kept window before {@code now}, the time of the
   * envelope being folded. The result depends only on the set of ended transfers and {@code now},
   * never on the order they ended in, so a state restored from a snapshot forgets what the state it
   * was taken of would have.
   */
  void forgetEndedBefore(Instant now) {
    if (keepEndedMillis == KEEP_ALL) {
      return;
    }
    long cutoff = now.toEpochMilli() - keepEndedMillis;
    // An ended transfer is not changed again while held: each id queued names the view it ended as.
    for (String id = ended.pollEndedBefore(cutoff); id != null; id = ended.pollEndedBefore(cutoff)) {
      views.remove(id);
      forgotten++;
    }
  }

  long keepEndedMillis() {
    return keepEndedMillis;
  }

  /** Ended transfers forgotten so far. */
  long forgotten() {
    return forgotten;
  }

  void requested(TransferRequested e, Applying at) {
    if (views.containsKey(e.transferId())) {
      at.violation("transfer " + e.transferId() + " requested again; the first request is kept");
      return;
    }
    put(e.transferId(), TransferView.requested(e, at.time(), at.eventId()));
  }

  void dispatched(String transferId, Applying at) {
    requested(transferId, "dispatched", at)
        .ifPresent(
            view -> {
              switch (view.status()) {
                case REQUESTED -> put(transferId, view.dispatched(at.time()));
                case DISPATCHED -> at.violation("transfer " + transferId + " dispatched twice");
                case COMPLETED, FAILED, REJECTED, TIMED_OUT ->
                    at.violation(
                        "transfer " + transferId + " dispatched after it ended as " + view.status());
              }
            });
  }

  void completed(TransferCompleted e, Applying at) {
    TransferView view = requested(e.transferId(), "completed", at).orElse(null);
    if (view == null || endsUndispatched(view, "completed", at) || !end(view, TransferStatus.COMPLETED, "", e.path(), e.bytes(), at)) {
      return;
    }
    if (view.request().requestForm()) {
      RequestCompletion.check(view.request(), e, at);
      return;
    }
    if (e.bytes() != view.request().totalBytes()) {
      at.violation(
          "transfer " + e.transferId() + " completed with " + e.bytes() + " bytes but requested "
              + view.request().totalBytes());
    }
  }

  void rejected(String transferId, String reason, String detail, Applying at) {
    if (reason.equals(ReasonCodes.DUPLICATE_TRANSFER) && views.containsKey(transferId)) {
      return; // answers a later request that reused the id: the transfer itself goes on, and is not ended twice
    }
    if (!views.containsKey(transferId)
        && (reason.equals(ReasonCodes.SCHEMA_UNSUPPORTED) || reason.equals(ReasonCodes.INVALID_REQUEST))) {
      return; // answers a request this fold could not read, so never held: nothing to end
    }
    TransferView view = requested(transferId, "rejected", at).orElse(null);
    if (view == null || !end(view, TransferStatus.REJECTED, reason, detail, 0, at)) {
      return;
    }
    if (view.status() == TransferStatus.DISPATCHED) {
      at.violation("transfer " + transferId + " rejected after it was dispatched");
    }
  }

  void ended(String transferId, TransferStatus status, String reason, String detail, Applying at) {
    String what = status.name().toLowerCase(Locale.ROOT);
    requested(transferId, what, at)
        .filter(view -> !endsUndispatched(view, what, at))
        .ifPresent(view -> end(view, status, reason, detail, 0, at));
  }

  /**
   * Whether this is the source node's ending of a transfer still requested: a violation, and not an ending, since
   * a node runs only what was dispatched to it and the dispatch comes first in the log (the coordinator's rejection
   * or time-out ends it instead).
   */
  private static boolean endsUndispatched(TransferView view, String what, Applying at) {
    if (view.status() != TransferStatus.REQUESTED || !at.producer().equals(view.request().sourceNode())) {
      return false;
    }
    at.violation("transfer " + view.transferId() + " " + what + " by its source node before it was dispatched;"
        + " not ended");
    return true;
  }

  /**
   * Ends the transfer unless it ended before; whether it ended now. A second end is a late outcome
   * when one of the two came from the source node's agent and the other from someone else (a
   * coordinator's time-out or peer verdict racing the agent's own report); any other is a violation.
   * Either way the first end is kept.
   */
  private boolean end(
      TransferView view, TransferStatus status, String reason, String detail, long bytes, Applying at) {
    if (!view.status().isTerminal()) {
      // Dated no earlier than the transfer's last change: an ending from a clock far behind must not
      // make the fold forget the transfer at once (and take a retried request as a new transfer).
      Instant endedAt = at.time().isBefore(view.updatedAt()) ? view.updatedAt() : at.time();
      put(view.transferId(), view.ended(status, reason, detail, bytes, endedAt, at.producer()));
      return true;
    }
    String source = view.request().sourceNode();
    if (view.status() != TransferStatus.REJECTED && status != TransferStatus.REJECTED
        && view.endedBy().equals(source) != at.producer().equals(source)) {
      lateOutcomes++;
    } else {
      at.violation(
          "transfer " + view.transferId() + " ended again as " + status + " after "
              + view.status() + "; the first end is kept");
    }
    return false;
  }

  /** Second ends that raced the first between an agent and a coordinator; see {@link #end}. */
  long lateOutcomes() {
    return lateOutcomes;
  }

  private Optional<TransferView> requested(String transferId, String what, Applying at) {
    TransferView view = views.get(transferId);
    if (view == null) {
      at.violation("transfer " + transferId + " " + what + " before it was requested" + (keepEndedMillis == KEEP_ALL
          ? "" : " (or over " + java.time.Duration.ofMillis(keepEndedMillis)
              + " after it ended, when the fold had forgotten it)"));
    }
    return Optional.ofNullable(view);
  }

  Optional<TransferView> transfer(String transferId) {
    return Optional.ofNullable(views.get(transferId));
  }

  List<TransferView> all() {
    return List.copyOf(image().values());
  }

  /** How many transfers are held, without listing them. */
  int size() {
    return views.size();
  }

  List<TransferView> inFlight() {
    return open.stream().map(views::get).toList();
  }

  int count(TransferStatus status) {
    return (int) views.values().stream().filter(v -> v.status() == status).count();
  }

  SortedMap<String, TransferView> image() {
    return new TreeMap<>(views);
  }

  void restore(SortedMap<String, TransferView> image, long forgottenBefore, long lateBefore) {
    // By end time, so the ended are queued in order (the open ones' order does not matter).
    image.entrySet().stream().sorted(Map.Entry.comparingByValue(Comparator.comparing(TransferView::updatedAt)))
        .forEach(e -> put(e.getKey(), e.getValue()));
    forgotten = forgottenBefore;
    lateOutcomes = lateBefore;
  }
}
