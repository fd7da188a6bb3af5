package io.kvfleet.control.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code kvfleet bench startup}: starts a coordinator and then a node agent as processes, through
 * the launcher a user runs, against a broker that is already up, and times each from the moment it
 * was started to its ready line, split by the marks the process prints ({@code KVFLEET_STARTUP_MARKS}):
 * JVM start to {@code main}, the cluster join, the engine probe (agents), the deploy (Kafka
 * metadata, the first produce or fetch), the ready line. Several rounds, each with its own cluster
 * name and ports; the processes are stopped after each.
 */
public final class StartupBench {
  private StartupBench() {}

  /** What to start and how often: every round starts a pair of each variant, in turn. */
  public record Settings(String bootstrapServers, int rounds, List<Variant> variants) {}

  /**
   * One way to start them: {@code label} in the results ("" for the only one), {@code launcher} (this
   * checkout's or a reference build's), with its AOT cache or {@code KVFLEET_AOT=off}.
   */
  public record Variant(String label, Path launcher, boolean aot) {
    /** How its results are named after the role: " (label)", or nothing. */
    public String suffix() {
      return label.isEmpty() ? "" : " (" + label + ")";
    }
  }

  /**
   * One process's start: milliseconds from launch to each step of its sequence, in order, the ready
   * line last; and the phases that ran beside one another (the cluster join, Kafka, the engine probe).
   */
  public record Start(String role, Map<String, Long> marks, Map<String, Span> spans) {
    long ready() {
      return marks.get("ready");
    }
  }

  /** A phase that ran beside others: milliseconds from launch to its begin and its end. */
  public record Span(long begin, long end) {
    /** How long it took. */
    public long millis() {
      return end - begin;
    }
  }

  /** Runs the rounds and prints each start; the starts. */
  public static List<Start> run(Settings settings, PrintStream out) throws Exception {
    var starts = new ArrayList<Start>();
    for (int round = 1; round <= settings.rounds(); round++) {
      for (int v = 0; v < settings.variants().size(); v++) {
        startPair(settings, round, v, starts, out);
      }
    }
    return starts;
  }

  /** A coordinator, then an agent joining it, the way variant {@code v} starts them. */
  private static void startPair(Settings settings, int round, int v, List<Start> starts, PrintStream out)
      throws Exception {
    var variant = settings.variants().get(v);
    String cluster = "startup-bench-" + ProcessHandle.current().pid() + "-" + round + "v" + v;
    int coordinatorPort = freePortRange();
    var coordinator = launch(variant, "kvfleet-coordinator=ready", "coordinator", "--bootstrap-servers",
        settings.bootstrapServers(), "--cluster-name", cluster, "--cluster-port", "" + coordinatorPort,
        "--cluster-members", "127.0.0.1:" + coordinatorPort + "-" + (coordinatorPort + 9), "--id",
        "startup-coordinator-" + round);
    try {
      starts.add(print(out, round, coordinator.start("coordinator" + variant.suffix())));
      int agentPort = freePortRange();
      var agent = launch(variant, "kvfleet-node-api=", "node", "--id", "startup-node-" + round,
          "--bootstrap-servers", settings.bootstrapServers(), "--cluster-name", cluster, "--cluster-port",
          "" + agentPort, "--cluster-members", "127.0.0.1:" + coordinatorPort + "-" + (coordinatorPort + 9));
      try {
        starts.add(print(out, round, agent.start("node agent" + variant.suffix())));
      } finally {
        agent.stop();
      }
    } finally {
      coordinator.stop();
    }
  }

  private static Start print(PrintStream out, int round, Start start) {
    out.printf("round %d %-23s ready in %,6d ms:%s%s%n", round, start.role(), start.ready(), sequence(start),
        beside(start));
    return start;
  }

  /** Each step's and each side-by-side phase's median over {@code starts} (one role's), as the rounds print them. */
  public static String medians(List<Start> starts) {
    var steps = new LinkedHashMap<String, List<Long>>();
    var spans = new LinkedHashMap<String, List<Long>>();
    for (var start : starts) {
      long before = 0;
      for (var e : start.marks().entrySet()) {
        steps.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue() - before);
        before = e.getValue();
      }
      start.spans().forEach((name, span) -> spans.computeIfAbsent(name, k -> new ArrayList<>()).add(span.millis()));
    }
    var parts = new StringBuilder();
    steps.forEach((name, values) -> parts.append(String.format("  %s +%,d", name, median(values))));
    if (!spans.isEmpty()) {
      parts.append("  | side by side:");
      spans.forEach((name, values) -> parts.append(String.format("  %s %,d", name, median(values))));
    }
    return parts.toString();
  }

  private static long median(List<Long> values) {
    return values.stream().sorted().toList().get(values.size() / 2);
  }

  /** The steps in order, each as the time since the one before. */
  static String sequence(Start start) {
    var parts = new StringBuilder();
    long before = 0;
    for (var e : start.marks().entrySet()) {
      parts.append(String.format("  %s +%,d", e.getKey(), e.getValue() - before));
      before = e.getValue();
    }
    return parts.toString();
  }

  /** The phases that ran side by side, each with its length and when it ran. */
  static String beside(Start start) {
    if (start.spans().isEmpty()) {
      return "";
    }
    var parts = new StringBuilder("  | side by side:");
    start.spans().forEach((name, span) -> parts.append(String.format("  %s %,d (%,d-%,d)", name, span.millis(),
        span.begin(), span.end())));
    return parts.toString();
  }

  /** A base port with the ten after it free, as far as a look can tell. */
  private static int freePortRange() throws IOException {
    for (int attempt = 0; attempt < 50; attempt++) {
      int base;
      try (var probe = new ServerSocket(0)) {
        base = probe.getLocalPort();
      }
      if (base > 65535 - 20) {
        continue;
      }
      boolean free = true;
      for (int p = base; p < base + 10 && free; p++) {
        try (var s = new ServerSocket(p)) {
          s.setReuseAddress(true);
        } catch (IOException e) {
          free = false;
        }
      }
      if (free) {
        return base;
      }
    }
    throw new IOException("no range of 10 free ports found");
  }

  private static Launched launch(Variant variant, String readyLine, String... args) throws IOException {
    var command = new ArrayList<String>();
    command.add(variant.launcher().toString());
    command.addAll(List.of(args));
    var builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("KVFLEET_STARTUP_MARKS", "1");
    if (!variant.aot()) {
      builder.environment().put("KVFLEET_AOT", "off");
    }
    long launched = System.currentTimeMillis();
    return new Launched(builder.start(), launched, readyLine);
  }

  private record Launched(Process process, long launched, String readyLine) {
    Start start(String role) throws IOException {
      var marks = new LinkedHashMap<String, Long>();
      var spans = new LinkedHashMap<String, Span>();
      var lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      var seen = new ArrayList<String>();
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        seen.add(line);
        if (line.startsWith("kvfleet-startup ")) {
          String[] parts = line.split(" ");
          long end = Long.parseLong(parts[2]) - launched;
          if (parts.length > 3) {
            spans.put(parts[1], new Span(Long.parseLong(parts[3]) - launched, end));
          } else {
            marks.put(parts[1], end);
          }
        } else if (line.startsWith(readyLine)) {
          marks.put("ready", System.currentTimeMillis() - launched);
          Thread.ofPlatform().daemon().start(() -> drain(lines));
          return new Start(role, marks, spans);
        }
      }
      throw new IOException(role + " ended before its ready line; it printed: " + String.join("\n", seen));
    }

    void stop() throws InterruptedException {
      process.destroy();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  private static void drain(BufferedReader lines) {
    try {
      while (lines.readLine() != null) {
        // keep the pipe empty so the process never blocks on it
      }
    } catch (IOException e) {
      // the process ended
    }
  }
}
