package io.kvfleet.control.dataplane;

import io.kvfleet.engine.bench.BenchOptions;
import io.kvfleet.engine.bench.EngineBench;
import java.io.PrintStream;
import java.util.List;

/** {@code kvfleet bench engine}'s way to the engine's own benchmark (the command reaches no engine itself). */
public final class EngineBenchmark {
  /** The transport sets the benchmark knows, by the names the command line takes. */
  public static final List<String> TRANSPORTS = List.of(BenchOptions.SHM.label(), BenchOptions.TCP.label());

  private EngineBenchmark() {}

  /**
   * What to measure, as the command line said it; a null list or binary means the engine's default.
   *
   * @param transports names from {@link #TRANSPORTS}
   */
  public record Request(List<Long> sizes, List<String> transports, int repeats, boolean perftest,
      String perftestBinary, boolean quick) {}

  /** The engine's default number of runs per row. */
  public static int defaultRepeats() {
    return BenchOptions.defaults().repeats();
  }

  /** Runs the engine benchmark, printing to {@code out}; the rows it measured. */
  public static int run(Request request, PrintStream out) {
    return EngineBench.run(options(request), out).size();
  }

  /** The engine bench's options for {@code request}. */
  public static BenchOptions options(Request request) {
    var defaults = BenchOptions.defaults();
    var transports = request.transports() == null ? defaults.transports() : request.transports().stream()
        .map(t -> t.equals(BenchOptions.TCP.label()) ? BenchOptions.TCP : BenchOptions.SHM).toList();
    var options = defaults.withSizes(request.sizes() != null ? request.sizes() : defaults.sizes())
        .withTransports(transports).withRepeats(request.repeats())
        .withPerftest(request.perftest(), request.perftestBinary() != null ? request.perftestBinary()
            : defaults.perftestBinary());
    return request.quick() ? options.quick() : options;
  }
}
