package io.kvfleet.control.bench;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code bench fleet} run: starts ours, the raw round trip and the raw three-hop chain on one
 * broker, then runs each phase on each in turn (never two at once): warm-up at the fixed rate,
 * fixed rate, saturation.
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
  private int agents = 2;
  private Duration keepEnded;

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

  /** Runs our fleet with {@code count} node agents (prefill/decode pairs; default 2). */
  public FleetVsKafka withAgents(int count) {
    this.agents = count;
    return this;
  }

  /** Has our coordinator forget an ended transfer after {@code window} of log time (null: its default). */
  public FleetVsKafka withKeepEnded(Duration window) {
    this.keepEnded = window;
    return this;
  }

  /** Runs every phase on the three systems and returns the report. */
  public Report run() throws Exception {
    var oursMeter = new Meter();
    var rawMeter = new Meter();
    var chainMeter = new Meter();
    progress.println("bench fleet: starting a coordinator and " + agents + " node agents, metrics " + (metrics ? "on" : "off"));
    try (var ours = FleetBench.start(bootstrapServers, settings.pages(), agents, keepEnded, oursMeter, metrics);
         var raw = KafkaChain.roundTrip(bootstrapServers, replicationFactor,
             FleetBench.recordSizes(settings.pages()), ours.sources(), rawMeter);
         var chain = KafkaChain.threeHops(bootstrapServers, replicationFactor,
             FleetBench.recordSizes(settings.pages()).withDispatched(ours.dispatchedBytes()), ours.sources(),
             chainMeter)) {
      var sizes = FleetBench.recordSizes(settings.pages()).withDispatched(ours.dispatchedBytes());
      var targets = List.<Target>of(ours, raw, chain);
      var meters = List.of(oursMeter, rawMeter, chainMeter);
      var open = new LoadGenerator(settings.rate());
      var closed = new ClosedLoop(settings.window());
      List<PhaseResult> results = new ArrayList<>();
      if (!settings.warmup().isZero()) {
        say(WARM_UP);
        for (int i = 0; i < targets.size(); i++) {
          open.run(targets.get(i), meters.get(i), ids(), settings.warmup(), settings.drain());
        }
      }
      say(settings.rate() + "/s");
      for (int i = 0; i < targets.size(); i++) {
        results.add(open.run(targets.get(i), meters.get(i), ids(), settings.duration(), settings.drain()));
      }
      say("saturation, window " + settings.window());
      for (int i = 0; i < targets.size(); i++) {
        results.add(closed.run(targets.get(i), meters.get(i), ids(), settings.duration(), settings.drain()));
      }
      return new Report(settings, sizes, agents, results);
    }
  }

  /** The first id of the next phase; ids never repeat within a run. */
  private long ids() {
    long first = nextId;
    nextId += 1L << 40;
    return first;
  }

  private void say(String phase) {
    var length = phase.equals(WARM_UP) ? settings.warmup() : settings.duration();
    // The JVM's uptime, to find a phase in a compilation log written with -Xlog:...:uptime.
    progress.printf("bench fleet: %s: kvfleet, then raw Kafka, then raw 3-hop, %d s each (JVM uptime %.1f s)%n", phase,
        length.toSeconds(), java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() / 1e3);
  }
}
