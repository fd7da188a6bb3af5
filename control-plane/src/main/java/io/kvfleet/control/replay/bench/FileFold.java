package io.kvfleet.control.replay.bench;

import io.kvfleet.control.replay.LogSource;
import io.kvfleet.control.replay.ReplayRunner;
import io.kvfleet.events.replay.Replay;
import io.kvfleet.events.replay.ReplayOptions;
import io.kvfleet.events.snapshot.StateHash;
import java.nio.file.Path;

/**
 * Folding an export: the whole path (decompression, JSON, decode, fold with anomaly checks) on one
 * thread, and with decoding on several. Its parts alone (Jackson's tokenizer, {@code EventCodec.decode},
 * the fold with and without the anomaly checks) are JMH micro-benchmarks in the test tree
 * ({@code DecodeBenchmark}, {@code FoldBenchmark}; BENCHMARKS.md has the command).
 */
final class FileFold {
  private FileFold() {}

  /** What one round measured, and the hash every path reached. */
  record Result(Rate endToEnd, Rate pipelined, String hash) {}

  static Result measure(Path file, int rounds) {
    Rate endToEnd = null;
    Rate pipelined = null;
    String hash = null;
    for (int i = 0; i < rounds; i++) {
      var replay = new Replay(ReplayOptions.defaults());
      endToEnd = Rate.best(endToEnd, Rate.measure("file, one thread: read+decode+fold+anomalies", () -> {
        ReplayRunner.read(new LogSource.File(file), replay::accept, false, 0);
        return replay.state().appliedCount();
      }));
      hash = StateHash.of(replay.finish().state());
      var parallel = new Replay(ReplayOptions.defaults());
      pipelined = Rate.best(pipelined, Rate.measure("file, " + ReplayRunner.DECODE_THREADS
          + " decoding threads + 1 folding", () -> {
            ReplayRunner.run(new LogSource.File(file), parallel, false);
            return parallel.state().appliedCount();
          }));
      check(hash, StateHash.of(parallel.finish().state()));
    }
    return new Result(endToEnd, pipelined, hash);
  }

  private static void check(String expected, String actual) {
    if (!expected.equals(actual)) {
      throw new IllegalStateException("the fold reached " + actual + ", not " + expected + ": not deterministic");
    }
  }
}
