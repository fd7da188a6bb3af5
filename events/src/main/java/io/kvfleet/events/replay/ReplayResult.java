package io.kvfleet.events.replay;

import io.kvfleet.events.state.FleetState;
import java.time.Instant;
import java.util.Optional;

/** What a replay found: the state where it stopped, what it read, and the anomalies. */
public final class ReplayResult {
  private final FleetState state;
  private final long records;
  private final long malformed;
  private final Instant first;
  private final Instant last;
  private final LogPosition lastPosition;
  private final boolean stoppedEarly;
  private final AnomalyReport anomalies;
  private final History history;

  ReplayResult(FleetState state, long records, long malformed, Instant first, Instant last,
      LogPosition lastPosition, boolean stoppedEarly, AnomalyReport anomalies, History history) {
    this.state = state;
    this.records = records;
    this.malformed = malformed;
    this.first = first;
    this.last = last;
    this.lastPosition = lastPosition;
    this.stoppedEarly = stoppedEarly;
    this.anomalies = anomalies;
    this.history = history;
  }

  /** The fleet state where the replay stopped. */
  public FleetState state() {
    return state;
  }

  /** Records read and folded (events and malformed records). */
  public long records() {
    return records;
  }

  /** Records that were not events. */
  public long malformed() {
    return malformed;
  }

  /** Timestamp of the first record folded. */
  public Optional<Instant> first() {
    return Optional.ofNullable(first);
  }

  /** Timestamp of the last record folded. */
  public Optional<Instant> last() {
    return Optional.ofNullable(last);
  }

  /** Position of the last record folded. */
  public Optional<LogPosition> lastPosition() {
    return Optional.ofNullable(lastPosition);
  }

  /** Whether the replay stopped before the end of the log. */
  public boolean stoppedEarly() {
    return stoppedEarly;
  }

  /** The anomalies found. */
  public AnomalyReport anomalies() {
    return anomalies;
  }

  /** The state where the replay stopped, as an operator reads it. */
  public StateReport report() {
    return StateReport.of(state, lastPosition, last);
  }

  /** The causal chain behind one entity; the replay must have been asked to keep its history. */
  public Explanation explain(ExplainTarget target) {
    if (history == null) {
      throw new IllegalStateException("this replay kept no history: ask ReplayOptions.explaining()");
    }
    return Explainer.explain(target, history, state);
  }
}
