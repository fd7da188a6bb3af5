package io.kvfleet.control.cli;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.StartupMarks;
import io.kvfleet.control.agent.AgentConfig;
import io.kvfleet.control.coordinator.Coordinator;
import io.kvfleet.control.coordinator.SnapshotStore;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.events.Topics;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code kvfleet coordinator}: folds the fleet's log and dispatches transfers to node agents. */
@Command(name = "coordinator", mixinStandardHelpOptions = true,
    description = "Run a coordinator: fold the fleet's events from Kafka, validate transfer requests, "
        + "dispatch them over the clustered EventBus, end transfers of lost peers and passed deadlines.")
final class CoordinatorCommand implements Callable<Integer> {
  @Mixin ClusterOptions cluster;

  @Mixin TrustOptions trust;

  @Option(names = "--id", defaultValue = "coordinator-0", description = "Coordinator id (default: ${DEFAULT-VALUE})")
  String coordinatorId;

  @Option(names = "--group", description = "Share the transfers with the other coordinators of this consumer "
      + "group, partitioned by source node (default: this coordinator decides every transfer)")
  String group;

  @Mixin OpsCliOptions ops;

  @Spec CommandSpec spec;

  @Option(names = "--snapshot-dir", description = "Write state snapshots here and start from the newest valid one")
  java.nio.file.Path snapshotDir;

  @Option(names = "--snapshot-every", defaultValue = "10000", description = "With --snapshot-dir: a snapshot every 30 s"
      + " if at least this many events were folded since the last, and one on catching up (default: ${DEFAULT-VALUE})")
  long snapshotEvery;

  @Option(names = "--keep-ended", defaultValue = "10m", description = "Forget a transfer this long (in log time) "
      + "after it ended, so memory and snapshots hold the transfers of this window; a request repeating a forgotten "
      + "transfer's id is a new transfer; the log keeps every transfer for replay (default: ${DEFAULT-VALUE})")
  java.time.Duration keepEnded;

  @Override
  public Integer call() throws Exception {
    if (snapshotEvery < 1) {
      throw KvfleetException.badInput("--snapshot-every must be at least 1, not " + snapshotEvery);
    }
    if (snapshotDir == null && spec.commandLine().getParseResult().hasMatchedOption("--snapshot-every")) {
      throw KvfleetException.badInput("--snapshot-every needs --snapshot-dir (where the snapshots go)");
    }
    if (group != null && snapshotDir != null) {
      throw KvfleetException.badInput("--snapshot-dir is for a lone coordinator; a group member re-reads"
          + " its partitions from the log (leave out one of --group and --snapshot-dir)");
    }
    ops.options();
    var signing = trust.signing("coordinator " + coordinatorId, io.kvfleet.events.trust.Role.COORDINATOR,
        coordinatorId);
    cluster.check();
    // The join and Kafka need nothing of each other: side by side, the slower bounds the start.
    var steps = new StartupSteps();
    StartupMarks.mark("checked");
    // On a thread of its own from the first call: building the cluster manager loads and links most of its
    // classes before the join itself, which would hold the other steps back.
    var joining = steps.begin("cluster-join", () -> cluster.join().get(120, TimeUnit.SECONDS), Vertx::close);
    var publishing = steps.begin("kafka", () -> {
      cluster.ensureTopics();
      return new EventPublisher(cluster.bootstrapServers, coordinatorId, AgentConfig.newEpoch(), Clock.systemUTC(),
          EventPublisher.DEFAULT_CAPACITY, signing.key()).warm(Topics.NODES, Topics.TRANSFERS);
    }, EventPublisher::close);
    EventPublisher events;
    Vertx vertx;
    try {
      events = publishing.await(90); // Kafka unreachable fails with its message, not after the join
      vertx = joining.await(130);
    } catch (Exception e) {
      steps.abandon();
      throw e;
    }
    StartupMarks.mark("steps-done");
    var coordinator = new Coordinator(cluster.bootstrapServers, events, Clock.systemUTC()).withKeepEnded(keepEnded)
        .withSigning(signing);
    if (group != null) {
      coordinator.withGroup(group);
    }
    if (snapshotDir != null) {
      coordinator.withSnapshots(new SnapshotStore(snapshotDir), java.time.Duration.ofSeconds(30), snapshotEvery);
    }
    var opsServer = new io.kvfleet.control.ops.OpsServer(ops.options(), io.kvfleet.control.ops.OpsMetrics.registry());
    vertx.deployVerticle(coordinator.withWatcher(opsServer))
        .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    StartupMarks.mark("deployed");
    // Before the ready line: a process told to stop the moment it is ready stops cleanly.
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
      } catch (Exception e) {
        System.err.println("coordinator: unclean stop: " + e.getMessage());
      } finally {
        events.close();
      }
    }));
    System.out.println("coordinator " + coordinatorId + " running; logs in " + Kvfleet.logFile());
    System.out.println("coordinator " + coordinatorId + ": dashboard and API at "
        + opsServer.dashboardUrl(opsServer.port().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS)));
    System.out.println("kvfleet-coordinator=ready");
    Thread.currentThread().join();
    return 0;
  }
}
