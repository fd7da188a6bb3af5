package io.kvfleet.control.cli;

import io.kvfleet.control.chaos.ChaosConfig;
import io.kvfleet.control.chaos.FaultRun;
import io.kvfleet.control.chaos.Scenario;
import io.kvfleet.control.KvfleetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kvfleet chaos}: the fault suite, as long as asked (the soak runs behind RELIABILITY.md). */
@Command(name = "chaos", mixinStandardHelpOptions = true,
    description = "Run the fault suite against a fleet of real processes on loopback (brokers, coordinators, two"
        + " agents, a router under load): SIGKILL and restart brokers (one, and one of three), coordinators (one,"
        + " and one of a group of two), SIGKILL or SIGSTOP an agent, write poison records; then read the log back"
        + " and check that every request ended exactly once, nothing was lost or duplicated, no byte moved after"
        + " a failure was published and every poison record was dead-lettered. Exit code 1 if any promise broke.")
final class ChaosCommand implements Callable<Integer> {
  @Option(names = "--scenario", split = ",", description = "Which faults, comma-separated: ${COMPLETION-CANDIDATES}"
      + " (default: all)")
  List<Scenario> scenarios = List.of(Scenario.values());

  @Option(names = "--rounds", defaultValue = "5", description = "Faults per scenario (default: ${DEFAULT-VALUE})")
  int rounds;

  @Option(names = "--rate", defaultValue = "100", description = "Requests per second (default: ${DEFAULT-VALUE})")
  int rate;

  @Option(names = "--deadline", defaultValue = "5s", description = "Each request's deadline (default: ${DEFAULT-VALUE})")
  Duration deadline;

  @Option(names = "--heartbeat", defaultValue = "300ms", description = "Agents' heartbeat; the lease is three"
      + " (default: ${DEFAULT-VALUE})")
  Duration heartbeat;

  @Option(names = "--work-dir", description = "Where brokers keep data and processes their logs (default: a new"
      + " temporary folder)")
  Path workDir;

  @Override
  public Integer call() throws Exception {
    if (rounds < 1 || rate < 1 || rate > 1000) {
      throw KvfleetException.badInput("--rounds must be at least 1 and --rate 1 to 1000");
    }
    Path dir = workDir == null ? Files.createTempDirectory("kvfleet-chaos-") : workDir;
    System.out.println("chaos: " + scenarios.size() + " scenarios, " + rounds + " rounds each, " + rate
        + " requests/s; processes and logs in " + dir);
    boolean held = true;
    for (var scenario : scenarios) {
      var config = new ChaosConfig(System.getProperty("java.class.path"), dir.resolve(scenario.name().toLowerCase()),
          rate, deadline, heartbeat, rounds, "kvfleet-chaos-" + UUID.randomUUID().toString().substring(0, 8));
      long started = System.nanoTime();
      var figures = FaultRun.run(scenario, config);
      System.out.println(figures.describe());
      System.out.printf("  (%d s)%n", Duration.ofNanos(System.nanoTime() - started).toSeconds());
      held &= figures.held();
    }
    return held ? 0 : 1;
  }
}
