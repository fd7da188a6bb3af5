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
        + "already up in this JVM; time each from launch to its ready line, by phase (JVM start to main, cluster "
        + "join, engine probe, deploy: Kafka metadata and first produce or fetch, ready line). Several rounds.")
final class BenchStartupCommand implements Callable<Integer> {
  @Option(names = "--rounds", defaultValue = "3", description = "Rounds (default: ${DEFAULT-VALUE})")
  int rounds;

  @Option(names = "--compare-aot", description = "Each round starts both twice: with the launcher's AOT cache "
      + "('./kvfleet aot') and without it (KVFLEET_AOT=off), alternating")
  boolean compareAot;

  @Option(names = "--launcher", defaultValue = "${env:KVFLEET_LAUNCHER:-./kvfleet}", description = "The launcher to start them with (default: "
      + "${DEFAULT-VALUE}; its AOT cache, if built, is used as a user's start would use it)")
  Path launcher;

  @Option(names = "--reference", description = "Another checkout's launcher (e.g. a build of main): each round starts"
      + " a pair with it too, alternating with this one's, so both are measured side by side under the same load")
  Path reference;

  @Override
  public Integer call() throws Exception {
    for (Path l : launchers()) {
      if (!Files.isExecutable(l)) {
        System.err.println("kvfleet bench startup: " + l + " is not an executable launcher (a checkout's ./kvfleet)");
        return 2;
      }
    }
    try (var kafka = EmbeddedKafka.startInTempDir()) {
      FleetTopics.ensure(kafka.bootstrapServers(), (short) 1);
      System.out.println("kvfleet bench startup: broker at " + kafka.bootstrapServers() + ", launcher " + launcher
          + (reference == null ? "" : ", reference " + reference)
          + ", load average " + io.kvfleet.control.replay.bench.ReplayBenchmark.loadAverage());
      var variants = variants();
      var starts = StartupBench.run(new StartupBench.Settings(kafka.bootstrapServers(), rounds, variants), System.out);
      var roles = new java.util.ArrayList<String>();
      for (String process : new String[] {"coordinator", "node agent"}) {
        variants.forEach(v -> roles.add(process + v.suffix()));
      }
      for (String role : roles) {
        var ofRole = starts.stream().filter(s -> s.role().equals(role)).toList();
        var ready = ofRole.stream().mapToLong(s -> s.marks().get("ready")).sorted().toArray();
        System.out.printf("%-34s ready: best %,d ms, median %,d ms over %d rounds (target < 3,000 ms on an idle "
            + "machine); median phases:%s%n", role, ready[0], ready[ready.length / 2], ready.length,
            StartupBench.medians(ofRole));
      }
      System.out.println("load average after: " + io.kvfleet.control.replay.bench.ReplayBenchmark.loadAverage());
    }
    return 0;
  }

  private java.util.List<Path> launchers() {
    return reference == null ? java.util.List.of(launcher) : java.util.List.of(launcher, reference);
  }

  /** This checkout's launcher, with and without its AOT cache if asked, then the reference's, the same way. */
  private java.util.List<StartupBench.Variant> variants() {
    var variants = new java.util.ArrayList<StartupBench.Variant>();
    for (Path l : launchers()) {
      String who = reference == null ? "" : l == reference ? "reference" : "this build";
      for (boolean aot : compareAot ? new boolean[] {true, false} : new boolean[] {true}) {
        String how = compareAot ? (aot ? "AOT" : "no AOT") : "";
        variants.add(new StartupBench.Variant(String.join(", ", java.util.stream.Stream.of(who, how)
            .filter(w -> !w.isEmpty()).toList()), l, aot));
      }
    }
    return variants;
  }
}
