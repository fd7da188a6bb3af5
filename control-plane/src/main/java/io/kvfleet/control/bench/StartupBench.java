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
 * JVM start to {@code main}, the Hazelcast join, the engine probe (agents), the deploy (Kafka
 * metadata, the first produce or fetch), the ready line. Several rounds, each with its own cluster
 * name and ports; the processes are stopped after each.
 */
public final class StartupBench {
  private StartupBench() {}

  /** What to start and how often. */
  public record Settings(Path launcher, String bootstrapServers, int rounds, boolean compareAot) {}

  /** One process's start: milliseconds from launch to each mark, in order, the ready line last. */
  public record Start(String role, Map<String, Long> marks) {
    long ready() {
      return marks.get("ready");
    }
  }

  /** Runs the rounds and prints each start; the starts. */
  public static List<Start> run(Settings settings, PrintStream out) throws Exception {
    var starts = new ArrayList<Start>();
    for (int round = 1; round <= settings.rounds(); round++) {
      for (boolean aot : settings.compareAot() ? new boolean[] {true, false} : new boolean[] {true}) {
        startPair(settings, round, aot, starts, out);
      }
    }
    return starts;
  }

  /** A coordinator, then an agent joining it; with {@code aot} false, started with {@code KVFLEET_AOT=off}. */
  private static void startPair(Settings settings, int round, boolean aot, List<Start> starts, PrintStream out)
      throws Exception {
    String suffix = settings.compareAot() ? (aot ? " (AOT)" : " (no AOT)") : "";
    {
      String cluster = "startup-bench-" + ProcessHandle.current().pid() + "-" + round + (aot ? "a" : "n");
      int coordinatorPort = freePortRange();
      var coordinator = launch(settings, aot, "kvfleet-coordinator=ready", "coordinator", "--bootstrap-servers",
          settings.bootstrapServers(), "--cluster-name", cluster, "--cluster-port", "" + coordinatorPort,
          "--cluster-members", "127.0.0.1:" + coordinatorPort + "-" + (coordinatorPort + 9), "--id",
          "startup-coordinator-" + round);
      try {
        starts.add(print(out, round, coordinator.start("coordinator" + suffix)));
        int agentPort = freePortRange();
        var agent = launch(settings, aot, "kvfleet-node-api=", "node", "--id", "startup-node-" + round,
            "--bootstrap-servers", settings.bootstrapServers(), "--cluster-name", cluster, "--cluster-port",
            "" + agentPort, "--cluster-members", "127.0.0.1:" + coordinatorPort + "-" + (coordinatorPort + 9));
        try {
          starts.add(print(out, round, agent.start("node agent" + suffix)));
        } finally {
          agent.stop();
        }
      } finally {
        coordinator.stop();
      }
    }
  }

  private static Start print(PrintStream out, int round, Start start) {
    var parts = new StringBuilder();
    long before = 0;
    for (var e : start.marks().entrySet()) {
      parts.append(String.format("  %s +%,d", e.getKey(), e.getValue() - before));
      before = e.getValue();
    }
    out.printf("round %d %-23s ready in %,6d ms:%s%n", round, start.role(), start.ready(), parts);
    return start;
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

  private static Launched launch(Settings settings, boolean aot, String readyLine, String... args) throws IOException {
    var command = new ArrayList<String>();
    command.add(settings.launcher().toString());
    command.addAll(List.of(args));
    var builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("KVFLEET_STARTUP_MARKS", "1");
    if (!aot) {
      builder.environment().put("KVFLEET_AOT", "off");
    }
    long launched = System.currentTimeMillis();
    return new Launched(builder.start(), launched, readyLine);
  }

  private record Launched(Process process, long launched, String readyLine) {
    Start start(String role) throws IOException {
      var marks = new LinkedHashMap<String, Long>();
      var lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      var seen = new ArrayList<String>();
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        seen.add(line);
        if (line.startsWith("kvfleet-startup ")) {
          String[] parts = line.split(" ");
          marks.put(parts[1], Long.parseLong(parts[2]) - launched);
        } else if (line.startsWith(readyLine)) {
          marks.put("ready", System.currentTimeMillis() - launched);
          Thread.ofPlatform().daemon().start(() -> drain(lines));
          return new Start(role, marks);
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
