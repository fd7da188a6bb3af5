package io.kvfleet.events.replay;

import static java.util.Objects.requireNonNull;

import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.trust.Verdict;
import io.kvfleet.events.trust.Verifier;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One replay: records go in, in replay order, and are folded with {@link FleetState#apply} (the
 * coordinator's own fold) until the {@link Until} says stop; anomalies are found beside the fold,
 * the timeline goes to a sink as it happens, and the history behind an explanation is kept when
 * one is asked for. Not thread-safe: the reading thread owns a replay.
 */
public final class Replay {
  private final FleetState state;
  private final Until until;
  private final Consumer<TimelineEntry> timeline;
  private final Anomalies anomalies = new Anomalies();
  private final History history;
  private final Verifier verifier;
  private final Placement placement;
  private final List<ReplayObserver> observers = new ArrayList<>();
  private long records;
  private long malformed;
  private long refused;
  private Instant first;
  private Instant last;
  private LogPosition lastPosition;
  private boolean stopped;

  /** A replay from an empty fleet. */
  public Replay(ReplayOptions options) {
    this(new FleetState(), options);
  }

  /** A replay that goes on from {@code start}, e.g. a state restored from a snapshot. */
  public Replay(FleetState start, ReplayOptions options) {
    this.state = requireNonNull(start, "start must not be null");
    this.until = options.until();
    this.timeline = options.timeline();
    this.verifier = options.verifier();
    this.placement = options.placement();
    this.history = options.explain().isEmpty() ? null : new History(options.explain());
    observers.add(anomalies);
    if (history != null) {
      history.startedFrom(start);
      observers.add(history);
    }
  }

  /** Folds the next record in replay order; false once the replay has stopped (this record not folded). */
  public boolean accept(LogRecord record) {
    if (stopped) {
      return false;
    }
    var step = until.step(record, records);
    if (step == Until.Step.STOP) {
      stopped = true;
      return false;
    }
    fold(record);
    stopped = step == Until.Step.FOLD_AND_STOP;
    return !stopped;
  }

  private void fold(LogRecord record) {
    if (first == null) {
      first = record.timestamp();
    }
    records++;
    last = record.timestamp();
    lastPosition = record.position();
    for (ReplayObserver o : observers) {
      o.record(record);
    }
    switch (record.value()) {
      case Decoded.Event e when refusal(record, e) instanceof Verdict.Refused why -> {
        refused++;
        for (ReplayObserver o : observers) {
          o.refused(record, e.envelope(), why);
        }
      }
      case Decoded.Event e -> {
        for (ReplayObserver o : observers) {
          o.before(record, e.envelope(), state);
        }
        state.apply(e.envelope());
        for (ReplayObserver o : observers) {
          o.after(record, e.envelope(), state);
        }
      }
      case Decoded.Malformed m -> {
        malformed++;
        for (ReplayObserver o : observers) {
          o.malformed(record, m);
        }
      }
    }
    timeline.accept(new TimelineEntry(records, record, Duration.between(first, record.timestamp())));
  }

  /** Why a verifying replay does not fold {@code e}: what a verifying coordinator refuses, in its order. */
  private Verdict refusal(LogRecord record, Decoded.Event e) {
    var misplaced = verifier.isOn() ? placement.misplaced(record) : java.util.Optional.<String>empty();
    if (misplaced.isPresent()) {
      return new Verdict.Refused(ReasonCodes.EVENT_MISPLACED, misplaced.get());
    }
    return verifier.check(e.raw(), e.envelope(), io.kvfleet.events.trust.Dispatch.in(state));
  }

  /** Records not folded because their writer had no right to say them. */
  public long refused() {
    return refused;
  }

  /** Whether the {@link Until} was reached. */
  public boolean stopped() {
    return stopped;
  }

  /** The state so far; it stays the replay's, to read on its thread. */
  public FleetState state() {
    return state;
  }

  /** Ends the replay: anomalies that need the whole log (gaps, unended transfers) are found now. */
  public ReplayResult finish() {
    Instant end = last == null ? Instant.EPOCH : last;
    if (stopped) {
      anomalies.cut(); // what is in flight at the until is in the state, not an anomaly
    }
    observers.forEach(o -> o.finish(state, end));
    return new ReplayResult(state, records, malformed, first, last, lastPosition, stopped,
        anomalies.report(), history);
  }
}
