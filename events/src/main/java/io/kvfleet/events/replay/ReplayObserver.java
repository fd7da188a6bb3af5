package io.kvfleet.events.replay;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.state.FleetState;

/**
 * Sees each record of a replay beside the fold: an event just before and just after it is
 * folded (so it can compare the state), or a record that is not an event. It must not change
 * the state; the replay's thread calls it.
 */
public interface ReplayObserver {
  /** {@code record} is next in replay order, whatever it holds (before any of the calls below). */
  default void record(LogRecord record) {}

  /** {@code envelope}, read from {@code record}, is about to be folded into {@code state}. */
  default void before(LogRecord record, Envelope envelope, FleetState state) {}

  /** {@code envelope} was just folded into {@code state} (or skipped as a redelivery). */
  default void after(LogRecord record, Envelope envelope, FleetState state) {}

  /** {@code record} is not an event. */
  default void malformed(LogRecord record, Decoded.Malformed malformed) {}

  /** {@code envelope}, read from {@code record}, was not folded: its writer had no right to say it ({@code why}). */
  default void refused(LogRecord record, Envelope envelope, io.kvfleet.events.trust.Verdict.Refused why) {}

  /** The replay ended with {@code state}; {@code last} is the time of the last record folded. */
  default void finish(FleetState state, java.time.Instant last) {}
}
