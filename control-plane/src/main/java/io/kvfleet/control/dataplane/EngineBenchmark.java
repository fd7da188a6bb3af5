package io.kvfleet.control.dataplane;

import io.kvfleet.engine.bench.BenchOptions;
import io.kvfleet.engine.bench.EngineBench;
import java.io.PrintStream;
import java.util.List;

/** {@code kvfleet bench engine}'s way to the engine's own benchmark (the command reaches no engine itself). */
public final class EngineBenchmark {
  private EngineBenchmark() {}

  /** Runs the engine benchmark with its {@code options}, printing to {@code out}; the rows it measured. */
  public static int run(List<String> options, PrintStream out) {
    return EngineBench.run(BenchOptions.parse(options.toArray(String[]::new)), out).size();
  }
}
