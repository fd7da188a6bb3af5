package io.kvfleet.control.replay.bench;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.StateImage;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A fold far into a long log, as a time-travel replay starts from a snapshot: the synthetic fleet's
 * first {@link #BEFORE} events folded by a coordinator's fold ({@code --keep-ended 10m}, so it holds
 * some 205,000 transfers, ended and not), and the next {@link MicroLog#EVENTS} events to fold on.
 * Each operation folds them into a fresh copy of that state (restored from its image, not timed).
 */
@State(Scope.Benchmark)
public class LargeStateLog {
  /** Events folded before the measured ones. */
  static final int BEFORE = 1_000_000;

  StateImage image;
  List<Envelope> next;
  FleetState state;

  @Setup(Level.Trial)
  public void generate() {
    next = new ArrayList<>(MicroLog.EVENTS);
    image = fold(next).image();
  }

  /** The fold of the first {@link #BEFORE} events; the {@link MicroLog#EVENTS} after them go to {@code next}. */
  static FleetState fold(List<Envelope> next) {
    var before = FleetState.keepingEnded(Duration.ofMinutes(10));
    SyntheticFleet.generate(BEFORE + MicroLog.EVENTS, Instant.parse("2026-06-01T12:00:00Z"), e -> {
      if (before.appliedCount() < BEFORE) {
        before.apply(e);
      } else if (next.size() < MicroLog.EVENTS) {
        next.add(e);
      }
    });
    System.out.printf("large state: %,d events folded, %,d transfers held%n", before.appliedCount(),
        before.counts().transfers());
    return before;
  }

  @Setup(Level.Invocation)
  public void restore() {
    state = FleetState.restore(image);
  }
}
