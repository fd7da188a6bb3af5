package io.kvfleet.control.cli;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.console.EventLine;
import io.kvfleet.control.coordinator.Coordinator;
import io.kvfleet.control.demo.DataPathNotice;
import io.kvfleet.control.demo.DemoFleet;
import io.kvfleet.control.demo.DemoKeys;
import io.kvfleet.control.kafka.EmbeddedKafka;
import io.kvfleet.control.kafka.EventTail;
import io.kvfleet.control.kafka.FleetTopics;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.snapshot.StateHash;
import io.kvfleet.events.state.FleetState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code kvfleet demo}: a prefill/decode fleet on a real (embedded) Kafka, printing every event. */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Run a coordinator, a prefill node and two decode nodes in one JVM on an embedded Kafka "
        + "broker, stream KV transfers and hybrid-model request transfers between them (decode-0 registered "
        + "its conv state but not its SSM state, so its request transfers are rejected) and print every fleet "
        + "event as it lands.")
final class DemoCommand implements Callable<Integer> {
  @Option(names = "--duration", description = "Stop by itself after this long (e.g. 30s); default: until Ctrl-C")
  Duration duration;

  @Option(names = "--bootstrap-servers", description = "Use this Kafka cluster instead of the embedded broker")
  String bootstrapServers;

  @picocli.CommandLine.Mixin KafkaConfigOption kafkaConfig;

  @Option(names = "--data-dir", description = "Embedded broker's data folder (default: a temporary folder)")
  Path dataDir;

  @Option(names = "--rate", defaultValue = "5", description = "Transfer requests per second, 1 to 1000 (default: ${DEFAULT-VALUE})")
  int rate;

  @Option(names = "--crash-node", description = "Failure injection: this node's agent goes silent, as if killed "
      + "(prefill-0, decode-0 or decode-1)")
  String crashNode;

  @Option(names = "--crash-after", defaultValue = "10s", description = "When --crash-node crashes (default: ${DEFAULT-VALUE})")
  Duration crashAfter;

  @Option(names = "--replication-factor", defaultValue = "1", description = "For topics created on an external cluster")
  short replicationFactor;

  @Option(names = "--signed", description = "Every producer signs its events with a fresh Ed25519 key (in memory)"
      + " and the coordinator and agents verify them against the keys' trust file (docs/SECURITY.md)")
  boolean signed;

  @picocli.CommandLine.Mixin OpsCliOptions ops;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    checkOptions();
    DataPathNotice.probe().forEach(System.out::println);
    System.out.println("kvfleet demo: Kafka's and Vert.x's logs go to " + Kvfleet.logFile());
    System.out.println(signed ? "kvfleet demo: signed: every producer signs with its own key, the coordinator and"
        + " agents verify against their trust file"
        : "kvfleet demo: WARNING: events are NOT authenticated (the demo signs nothing; run it with --signed, or a"
        + " fleet with 'kvfleet node|coordinator --key FILE --trust FILE', see docs/SECURITY.md)");
    EmbeddedKafka kafka = null;
    if (bootstrapServers == null) {
      kafka = dataDir == null ? EmbeddedKafka.startInTempDir() : EmbeddedKafka.start(dataDir, false, 0);
      bootstrapServers = kafka.bootstrapServers();
      System.out.println("kvfleet demo: embedded Kafka broker (KRaft) at " + bootstrapServers + ", data in " + kafka.dataDir());
      System.out.println("kvfleet demo: Kafka is PLAINTEXT on loopback: no TLS, no credentials, no ACLs"
          + " (a secured cluster: --bootstrap-servers with --kafka-config, docs/SECURITY.md)");
    } else {
      kafkaConfig.apply(bootstrapServers);
    }
    FleetTopics.ensure(bootstrapServers, replicationFactor);
    System.out.println("kvfleet demo: topics " + String.join(", ", Topics.ALL));
    System.out.println("kvfleet demo: read along with  kcat -C -b " + bootstrapServers + " -t " + Topics.TRANSFERS + " -e");
    var stop = new CountDownLatch(1);
    var finished = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      stop.countDown();
      awaitQuietly(finished);
    }));
    var state = new FleetState();
    var malformed = new AtomicLong();
    // This run's events only, also on a broker that kept an earlier run's log (--data-dir, --bootstrap-servers).
    try (var tail = EventTail.startFromNow(bootstrapServers, Topics.ALL, r -> show(r, state, malformed))) {
      if (tail.recordsBefore() > 0) {
        System.out.printf("kvfleet demo: the log already holds %,d records of an earlier run; only this run's are"
            + " shown. Its transfer ids (t-0, t-1, ...) repeat that run's: the coordinator answers a repeated id as a"
            + " duplicate until it forgets the first (%d min after it ended). Use a new --data-dir for a clean run.%n",
            tail.recordsBefore(), Coordinator.DEFAULT_KEEP_ENDED.toMinutes());
      }
      try (var fleet = new DemoFleet(bootstrapServers, ops.options())) {
        if (signed) {
          fleet.signed(DemoKeys.make());
        }
        fleet.start(rate);
        fleet.dashboardUrl().ifPresent(url -> System.out.println("kvfleet demo: dashboard and API at " + url
            + (duration == null ? " (until Ctrl-C)" : " for " + duration.toSeconds() + " s")));
        if (crashNode != null) {
          fleet.crashLater(crashNode, crashAfter);
        }
        if (duration == null) {
          stop.await();
        } else {
          stop.await(duration.toMillis(), TimeUnit.MILLISECONDS);
        }
        if (signed) {
          System.out.println("kvfleet demo: signed: the coordinator refused " + fleet.coordinatorPoison()
              + " records (0: every event its writer signed and was allowed to say)");
        }
      }
      Thread.sleep(1_000); // let the last events (PeerLeft) reach the console
    } finally {
      if (kafka != null) {
        kafka.close();
      }
    }
    System.out.println(summary(state, malformed.get()));
    finished.countDown();
    return 0;
  }

  /** Refuses what would only fail, or be silently ignored, after the fleet started. */
  private void checkOptions() {
    var given = spec.commandLine().getParseResult();
    ops.options();
    if (rate < 1 || rate > DemoFleet.MAX_RATE) {
      throw KvfleetException.badInput("--rate must be 1 to " + DemoFleet.MAX_RATE + " requests per second, not " + rate);
    }
    if (crashNode != null && !DemoFleet.NODES.contains(crashNode)) {
      throw KvfleetException.badInput("--crash-node " + crashNode + ": the demo's nodes are " + DemoFleet.NODES);
    }
    if (crashNode == null && given.hasMatchedOption("--crash-after")) {
      throw KvfleetException.badInput("--crash-after needs --crash-node (which node to crash)");
    }
    if (bootstrapServers == null && kafkaConfig.file != null) {
      throw KvfleetException.badInput("--kafka-config is for an external cluster (--bootstrap-servers);"
          + " the embedded broker is PLAINTEXT on loopback");
    }
    if (bootstrapServers != null && dataDir != null) {
      throw KvfleetException.badInput("--data-dir is for the embedded broker; with --bootstrap-servers the"
          + " cluster keeps the data (leave out one of them)");
    }
    if (bootstrapServers == null && given.hasMatchedOption("--replication-factor")) {
      throw KvfleetException.badInput("--replication-factor is for an external cluster (--bootstrap-servers);"
          + " the embedded broker is a single node");
    }
  }

  private static synchronized void show(
      org.apache.kafka.clients.consumer.ConsumerRecord<String, Decoded> record, FleetState state, AtomicLong malformed) {
    TailCommand.print(record, System.out);
    switch (record.value()) {
      case Decoded.Event e -> state.apply(e.envelope());
      case Decoded.Malformed m -> malformed.incrementAndGet();
    }
  }

  private static String summary(FleetState state, long malformed) {
    var c = state.counts();
    long refusedRegions = state.failures().stream().map(f -> f.nodeId() + "/" + f.epoch() + "/" + f.region().regionId())
        .distinct().count();
    return String.format("kvfleet demo: %d events; peers %d (alive %d); regions live %d, refused %d (%d backend refusals)"
        + ", skipped %d; transfers %d: completed %d, rejected %d, failed %d, timed out %d, in flight %d,"
        + " late outcomes %d; sequence gaps %d; invariant violations %d; malformed records %d; state hash %s",
        c.applied(), c.peers(), c.alivePeers(), c.liveRegions(), refusedRegions, c.registrationFailures(),
        c.skippedRegions(),
        c.transfers(), c.completed(), c.rejected(), c.failed(), c.timedOut(), c.inFlight(), c.lateOutcomes(),
        c.missingSequences(), c.violations(), malformed, StateHash.of(state).substring(0, 16));
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
