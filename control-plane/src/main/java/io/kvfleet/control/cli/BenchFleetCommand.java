package io.kvfleet.control.cli;

import io.kvfleet.control.bench.BenchSettings;
import io.kvfleet.control.bench.BrokerProcess;
import io.kvfleet.control.bench.FleetVsKafka;
import io.kvfleet.control.kafka.EmbeddedKafka;
import io.kvfleet.control.kafka.FleetTopics;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kvfleet bench fleet}: our transfer latency and throughput beside the raw Kafka round trip. */
@Command(name = "fleet", mixinStandardHelpOptions = true,
    description = "End-to-end transfer latency (TransferRequested produced to terminal event consumed) and "
        + "throughput of a coordinator and its node agents, beside the raw Kafka round trip and a raw three-hop chain"
        + " (our design's critical path with nothing of ours) on the same broker "
        + "with the same record sizes: a fixed-rate phase and a saturation phase, with ratios.")
final class BenchFleetCommand implements Callable<Integer> {
  @Option(names = "--bootstrap-servers",
      description = "Use this Kafka cluster instead of a broker the bench starts (with no other kvfleet coordinator on it)")
  String bootstrapServers;

  @Option(names = "--embedded-broker", defaultValue = "false",
      description = "Run the bench's broker in the bench's JVM (default: in its own JVM, as a fleet runs one)")
  boolean embeddedBroker;

  @Option(names = "--keep-ended",
      description = "How long our coordinator remembers an ended transfer (default: the coordinator's, 10 minutes,"
          + " longer than a run, so every transfer stays in its heap)")
  Duration keepEnded;

  @Option(names = "--agents", defaultValue = "2",
      description = "Node agents of our fleet, in prefill/decode pairs; requests go round the pairs (default: ${DEFAULT-VALUE})")
  int agents;

  @picocli.CommandLine.Mixin KafkaConfigOption kafkaConfig;

  @Option(names = "--replication-factor", defaultValue = "1", description = "For topics created on an external cluster")
  short replicationFactor;

  @Option(names = "--rate", defaultValue = "1000", description = "Requests per second in the fixed-rate phase (default: ${DEFAULT-VALUE})")
  int rate;

  @Option(names = "--duration", defaultValue = "15s", description = "Length of each measured phase, per system (default: ${DEFAULT-VALUE})")
  Duration duration;

  @Option(names = "--warmup", defaultValue = "20s",
      description = "Unrecorded fixed-rate phase first, per system, while the JIT compiles (default: ${DEFAULT-VALUE})")
  Duration warmup;

  @Option(names = "--window", defaultValue = "256", description = "Requests outstanding in the saturation phase (default: ${DEFAULT-VALUE})")
  int window;

  @Option(names = "--pages", defaultValue = "1", description = "4 KiB pages per transfer, one range each; sets the record sizes (default: ${DEFAULT-VALUE})")
  int pages;

  @Option(names = "--drain", defaultValue = "30s", description = "How long a phase waits for its last answers (default: ${DEFAULT-VALUE})")
  Duration drain;

  @Option(names = "--metrics", negatable = true, defaultValue = "false",
      description = "Run our fleet with its metrics on: the coordinator folds them, Vert.x reports its own (default: off)")
  boolean metrics;

  @Override
  public Integer call() throws Exception {
    var settings = new BenchSettings(rate, duration, warmup, window, pages, drain);
    if (agents < 2 || agents % 2 != 0) {
      throw io.kvfleet.control.KvfleetException.badInput("--agents must be an even number of at least 2"
          + " (prefill/decode pairs): " + agents);
    }
    System.out.println("kvfleet bench fleet: Kafka's and Vert.x's logs go to " + Kvfleet.logFile());
    AutoCloseable kafka = null;
    String where;
    if (bootstrapServers == null && embeddedBroker) {
      var embedded = EmbeddedKafka.startInTempDir();
      kafka = embedded;
      bootstrapServers = embedded.bootstrapServers();
      where = "embedded single-node KRaft broker in this JVM at " + bootstrapServers;
    } else if (bootstrapServers == null) {
      var own = BrokerProcess.start();
      kafka = own;
      bootstrapServers = own.bootstrapServers();
      BrokerProcess.watch(own);
      where = "single-node KRaft broker in its own JVM (kvfleet kafka, pid " + own.pid() + ", output in "
          + own.output() + ") at " + bootstrapServers;
    } else {
      where = "Kafka at " + bootstrapServers;
      kafkaConfig.apply(bootstrapServers);
    }
    try {
      FleetTopics.ensure(bootstrapServers, replicationFactor);
      System.out.printf("kvfleet bench fleet: %s; %d cores seen by this JVM%n", where,
          Runtime.getRuntime().availableProcessors());
      var report = new FleetVsKafka(bootstrapServers, replicationFactor, settings, System.out).withMetrics(metrics)
          .withAgents(agents).withKeepEnded(keepEnded).run();
      System.out.println();
      System.out.print(report.format());
    } finally {
      if (kafka != null) {
        kafka.close();
      }
    }
    return 0;
  }
}
