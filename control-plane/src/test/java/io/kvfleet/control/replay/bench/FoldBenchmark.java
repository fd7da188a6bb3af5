package io.kvfleet.control.replay.bench;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.replay.Replay;
import io.kvfleet.events.replay.ReplayOptions;
import io.kvfleet.events.state.FleetState;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Folding decoded events into an empty fleet on one thread: {@code FleetState.apply} alone, and a
 * replay's fold with its anomaly checks. Each operation folds the whole log from empty.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@OperationsPerInvocation(MicroLog.EVENTS)
public class FoldBenchmark {

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
}
