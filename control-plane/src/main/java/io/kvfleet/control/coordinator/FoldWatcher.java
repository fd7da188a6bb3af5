package io.kvfleet.control.coordinator;

import io.kvfleet.events.replay.LogRecord;
import io.kvfleet.events.state.FleetState;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * Sees what the coordinator folds, on the coordinator's event loop (the ops API and metrics are
 * one). It reads the state it is handed and never changes it; it must not block.
 */
public interface FoldWatcher {
  /** A watcher that sees nothing. */
  FoldWatcher NONE = new FoldWatcher() {
    @Override
    public void folded(LogRecord record, FleetState state, boolean redelivered) {}
  };

  /** The coordinator is starting on {@code vertx}; {@code view} reads it (on its event loop only). */
  default Future<?> started(Vertx vertx, CoordinatorView view) {
    return Future.succeededFuture();
  }

  /**
   * {@code record} was just folded into {@code state}, or counted as malformed; {@code redelivered}
   * says the fold had seen its event before (same producer, epoch and sequence) and skipped it.
   */
  void folded(LogRecord record, FleetState state, boolean redelivered);

  /** The coordinator is stopping. */
  default Future<?> stopped() {
    return Future.succeededFuture();
  }
}
