package io.kvfleet.control.cli;

import io.kvfleet.control.kafka.EmbeddedKafka;
import io.kvfleet.control.kafka.FleetTopics;
import io.kvfleet.control.replay.bench.ReplayBenchmark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kvfleet bench replay}: fold and replay rates, and coordinator restart from a snapshot. */
@Command(name = "replay", mixinStandardHelpOptions = true,
    description = "On an embedded broker with empty fleet topics: produce a synthetic log of mixed events, export "
        + "it, fold the export on one thread, replay the topics beside a plain consumer loop reading the same "
        + "topics, and restart a coordinator from a snapshot of it. Prints each figure beside its target.")
final class BenchReplayCommand implements Callable<Integer> {
  @Option(names = "--events", defaultValue = "1000000", description = "Events in the log (default: ${DEFAULT-VALUE})")
  int events;

  @Option(names = "--rounds", defaultValue = "2", description = "Measured rounds of each reading; the best counts (default: ${DEFAULT-VALUE})")
  int rounds;

  @Option(names = "--measure", split = ",", description = "Only these parts: ${COMPLETION-CANDIDATES} (default: all; "
      + "the export is written in any case)")
  java.util.Set<ReplayBenchmark.Part> parts = java.util.EnumSet.noneOf(ReplayBenchmark.Part.class);

  @Option(names = "--work-dir", description = "Where the export and the snapshots go (default: a temporary folder)")
  Path workDir;

  @Override
  public Integer call() throws Exception {
    System.out.println("kvfleet bench replay: Kafka's and Vert.x's logs go to " + Kvfleet.logFile());
    Path dir = workDir != null ? workDir : Files.createTempDirectory("kvfleet-bench-replay-");
    try (var kafka = EmbeddedKafka.startInTempDir()) {
      FleetTopics.ensureKeepingWritersStamps(kafka.bootstrapServers(), (short) 1);
      System.out.println("kvfleet bench replay: embedded single-node KRaft broker in this JVM at "
          + kafka.bootstrapServers() + "; work folder " + dir);
      ReplayBenchmark.run(kafka.bootstrapServers(), new ReplayBenchmark.Settings(events, dir, rounds, parts), System.out);
    }
    return 0;
  }
}
