package io.kvfleet.control.cli;

import io.kvfleet.control.bench.StartupBench;
import io.kvfleet.control.kafka.EmbeddedKafka;
import io.kvfleet.control.kafka.FleetTopics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kvfleet bench startup}: how long a coordinator and a node agent take to print their ready lines. */
@Command(name = "startup", mixinStandardHelpOptions = true,
    description = "Start a coordinator, then a node agent, as processes through the launcher, against an embedded broker "
        + "already up in this JVM; time each from launch to its ready line, by phase (JVM start to main, Hazelcast "
        + "join, engine probe, deploy: Kafka metadata and first produce or fetch, ready line). Several rounds.")
final class BenchStartupCommand implements Callable<Integer> {
  @Option(names = "--rounds", defaultValue = "3", description = "Rounds (default: ${DEFAULT-VALUE})")
  int rounds;

  @Option(names = "--compare-aot", description = "Each round starts both twice: with the launcher's AOT cache "
      + "('./kvfleet aot') and without it (KVFLEET_AOT=off), alternating")
  boolean compareAot;

  @Option(names = "--launcher", defaultValue = "./kvfleet", description = "The launcher to start them with (default: "
      + "${DEFAULT-VALUE}; its AOT cache, if built, is used as a user's start would use it)")
  Path launcher;

  @Override
  public Integer call() throws Exception {
    if (!Files.isExecutable(launcher)) {
      System.err.println("kvfleet bench startup: " + launcher + " is not an executable launcher (run from the checkout)");
      return 2;
    }
    try (var kafka = EmbeddedKafka.startInTempDir()) {
      FleetTopics.ensure(kafka.bootstrapServers(), (short) 1);
      System.out.println("kvfleet bench startup: broker at " + kafka.bootstrapServers() + ", launcher " + launcher
          + ", load average " + io.kvfleet.control.replay.bench.ReplayBenchmark.loadAverage());
      var starts = StartupBench.run(new StartupBench.Settings(launcher, kafka.bootstrapServers(), rounds, compareAot), System.out);
      var roles = compareAot ? new String[] {"coordinator (AOT)", "coordinator (no AOT)", "node agent (AOT)",
          "node agent (no AOT)"} : new String[] {"coordinator", "node agent"};
      for (String role : roles) {
        var ready = starts.stream().filter(s -> s.role().equals(role)).mapToLong(s -> s.marks().get("ready")).sorted()
            .toArray();
        System.out.printf("%-21s ready: best %,d ms, median %,d ms over %d rounds (target < 3,000 ms on an idle "
            + "machine)%n", role, ready[0], ready[ready.length / 2], ready.length);
      }
      System.out.println("load average after: " + io.kvfleet.control.replay.bench.ReplayBenchmark.loadAverage());
    }
    return 0;
  }
}
