package io.kvfleet.control.cli;

import io.kvfleet.control.replay.bench.TimeTravelBenchmark;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kvfleet bench timetravel}: {@code replay --until T} from the snapshots beside a long export. */
@Command(name = "timetravel", mixinStandardHelpOptions = true,
    description = "Write a synthetic export (no broker) with a snapshot beside it every --every records, then time "
        + "'replay --until T' for several T, each beside the state hash a replay from the start reaches at T.")
final class BenchTimeTravelCommand implements Callable<Integer> {
  @Option(names = "--events", defaultValue = "10000000", description = "Events in the log (default: ${DEFAULT-VALUE})")
  long events;

  @Option(names = "--every", defaultValue = "1000000", description = "Records between snapshots (default: ${DEFAULT-VALUE})")
  long every;

  @Option(names = "--keep-ended", defaultValue = "10m", description = "The fold's window for ended transfers, as a "
      + "coordinator's (default: ${DEFAULT-VALUE})")
  Duration keepEnded;

  @Option(names = "--reuse", description = "Keep the export and snapshots a run left in --work-dir, if any, and time "
      + "only the replays (with the export but no snapshots folder: write the snapshots again)")
  boolean reuse;

  @Option(names = "--compare-serial", description = "Also time each T the previous way (the restored state walked "
      + "for its hash, the records after it read by one thread), as the reference, with the ratio")
  boolean compareSerial;

  @Option(names = "--commands", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "Also run 'replay --until T' for each T as a process of its own through the launcher, as an "
          + "operator runs it, and time it from start to exit (default: on; --no-commands: only in this JVM)")
  boolean commands;

  @Option(names = "--launcher", defaultValue = "${env:KVFLEET_LAUNCHER:-./kvfleet}",
      description = "The launcher those processes are started with (default: ${DEFAULT-VALUE})")
  Path launcher;

  @Option(names = "--work-dir", description = "Where the export and its snapshots go (default: a temporary folder)")
  Path workDir;

  @Override
  public Integer call() throws Exception {
    if (commands && !Files.isExecutable(launcher)) {
      System.err.println("kvfleet bench timetravel: " + launcher + " is not an executable launcher (a checkout's "
          + "./kvfleet; --no-commands times the replays in this JVM only)");
      return 2;
    }
    Path dir = workDir != null ? workDir : Files.createTempDirectory("kvfleet-bench-timetravel-");
    System.out.println("kvfleet bench timetravel: work folder " + dir);
    return TimeTravelBenchmark.run(new TimeTravelBenchmark.Settings(events, every, keepEnded, dir, reuse,
        compareSerial, commands ? Optional.of(launcher.toAbsolutePath()) : Optional.empty()), System.out) ? 0 : 1;
  }
}
