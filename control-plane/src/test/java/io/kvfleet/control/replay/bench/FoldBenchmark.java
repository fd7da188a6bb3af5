package io.kvfleet.control.replay.bench;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.replay.Replay;
import io.kvfleet.events.replay.ReplayOptions;
import io.kvfleet.events.state.FleetState;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * Folding decoded events on one thread: {@code FleetState.apply} alone, and a replay's fold with its
 * anomaly checks, each folding the whole log from empty; and {@code FleetState.apply} of as many events
 * into a large state ({@link LargeStateLog}), which should cost no more a record.
 */
public class FoldBenchmark extends MicroBenchmark {

  /** Events per second through {@code FleetState.apply}. */
  @Benchmark
  public FleetState fleetStateApply(MicroLog log) {
    var state = new FleetState();
    for (Envelope e : log.envelopes) {
      state.apply(e);
    }
    return state;
  }

  /** Events per second through a replay: the same fold plus the anomaly checks. */
  @Benchmark
  public Replay replayWithAnomalies(MicroLog log) {
    var replay = new Replay(ReplayOptions.defaults());
    log.decoded.forEach(replay::accept);
    return replay;
  }

  /** Events per second through {@code FleetState.apply} into a state that holds some 205,000 transfers. */
  @Benchmark
  public FleetState fleetStateApplyLarge(LargeStateLog log) {
    var state = log.state;
    for (Envelope e : log.next) {
      state.apply(e);
    }
    return state;
  }
}
