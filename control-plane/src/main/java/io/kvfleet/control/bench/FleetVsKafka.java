package io.kvfleet.control.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code bench fleet} run: starts ours and the raw round trip on one broker, then runs each
 * phase on ours and then on raw (never both at once): warm-up at the fixed rate, fixed rate,
 * saturation.
 */
public final class FleetVsKafka {
  /**
   * Unrecorded, at the fixed rate: on two shared cores the JIT compilers keep most of a core busy
   * for the first 30-40 s of a run, and the low-rate paths compile only when they run.
   */
  private static final String WARM_UP = "warm-up (unrecorded)";

  private final String bootstrapServers;
  private final short replicationFactor;
  private final BenchSettings settings;
  private final PrintStream progress;
  private long nextId;
  private boolean metrics;

  /** A run against {@code bootstrapServers} that prints a line as each phase starts. */
  public FleetVsKafka(String bootstrapServers, short replicationFactor, BenchSettings settings, PrintStream progress) {
    this.bootstrapServers = bootstrapServers;
    this.replicationFactor = replicationFactor;
    this.settings = settings;
    this.progress = progress;
  }

  /** Runs our fleet with its metrics on (the coordinator folds them and serves /metrics) or off. */
  public FleetVsKafka withMetrics(boolean on) {
    this.metrics = on;
    return this;
  }

  /** Runs every phase on both systems and returns the report. */
  public Report run() throws Exception {
    var sizes = FleetBench.recordSizes(settings.pages());
    var oursMeter = new Meter();
    var rawMeter = new Meter();
    progress.println("bench fleet: starting a coordinator and two node agents, metrics " + (metrics ? "on" : "off"));
    try (var ours = FleetBench.start(bootstrapServers, settings.pages(), oursMeter, metrics);
         var raw = KafkaRoundTrip.start(bootstrapServers, replicationFactor, sizes, rawMeter)) {
      var open = new LoadGenerator(settings.rate());
      var closed = new ClosedLoop(settings.window());
      List<PhaseResult> results = new ArrayList<>();
      if (!settings.warmup().isZero()) {
        say(WARM_UP, ours, raw);
        open.run(ours, oursMeter, ids(), settings.warmup(), settings.drain());
        open.run(raw, rawMeter, ids(), settings.warmup(), settings.drain());
      }
      say(settings.rate() + "/s", ours, raw);
      results.add(open.run(ours, oursMeter, ids(), settings.duration(), settings.drain()));
      results.add(open.run(raw, rawMeter, ids(), settings.duration(), settings.drain()));
      say("saturation, window " + settings.window(), ours, raw);
      results.add(closed.run(ours, oursMeter, ids(), settings.duration(), settings.drain()));
      results.add(closed.run(raw, rawMeter, ids(), settings.duration(), settings.drain()));
      return new Report(settings, sizes, results);
    }
  }

  /** The first id of the next phase; ids never repeat within a run. */
  private long ids() {
    long first = nextId;
    nextId += 1L << 40;
    return first;
  }

  private void say(String phase, Target ours, Target raw) {
    var length = phase.equals(WARM_UP) ? settings.warmup() : settings.duration();
    progress.printf("bench fleet: %s: %s, then %s, %d s each%n", phase, ours.name(), raw.name(), length.toSeconds());
  }
}
