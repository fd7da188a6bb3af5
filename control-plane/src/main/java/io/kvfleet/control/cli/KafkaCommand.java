package io.kvfleet.control.cli;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.kafka.BrokerSecurity;
import io.kvfleet.control.kafka.EmbeddedKafka;
import io.kvfleet.control.kafka.FleetTopics;
import io.kvfleet.control.kafka.KraftQuorum;
import io.kvfleet.events.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kvfleet kafka}: a standalone embedded broker, alone or one of a local KRaft cluster. */
@Command(name = "kafka", mixinStandardHelpOptions = true,
    description = {"Run the embedded Kafka (KRaft) broker with the fleet topics until Ctrl-C: a single node, or,"
        + " with --node-id and --controller-quorum, one member of a cluster of brokers (each its own process).",
        "A cluster of three on one machine:",
        "  kvfleet kafka --node-id 1 --controller-quorum 1@127.0.0.1:19091,2@127.0.0.1:19093,3@127.0.0.1:19095"
            + " --port 19092 --data-dir /tmp/b1",
        "and the same with --node-id 2 --port 19094 --data-dir /tmp/b2, --node-id 3 --port 19096 --data-dir /tmp/b3."
            + " Fleet and internal topics get replication factor 3 and min.insync.replicas 2."})
final class KafkaCommand implements java.util.concurrent.Callable<Integer> {
  @Option(names = "--data-dir", description = "Where the broker keeps its log (default: a temporary folder;"
      + " required in a cluster)")
  Path dataDir;

  @Option(names = "--port", defaultValue = "0", description = "Client port (default: a free one; required in a cluster)")
  int port;

  @Option(names = "--node-id", description = "This broker's node id in the cluster (one of --controller-quorum's)")
  Integer nodeId;

  @Option(names = "--controller-quorum", paramLabel = "ID@HOST:PORT,...",
      description = "Every broker's controller address (Kafka's controller.quorum.voters)")
  String voters;

  @Option(names = "--cluster-id", description = "The cluster id to format with (default: derived from the quorum,"
      + " so the members agree without being told)")
  String clusterId;

  @Option(names = "--secure", paramLabel = "DIR", description = "A single broker whose client listener is SASL_SSL"
      + " (SCRAM-SHA-512) with ACLs per role: its key, certificate, truststore, passwords and one client properties"
      + " file per role (admin, coordinator, node, router, observer; give them as --kafka-config) are in DIR, made"
      + " on first use (default: PLAINTEXT on loopback, no credentials)")
  Path secure;

  @Option(names = "--wait-for-brokers", defaultValue = "120s",
      description = "How long a cluster member waits for the others before creating the topics (default: ${DEFAULT-VALUE})")
  Duration waitForBrokers;

  @Override
  public Integer call() throws Exception {
    var kafka = start();
    int brokers = kafka.quorum().size();
    if (brokers > 1) {
      System.out.println("kafka: node " + kafka.quorum().nodeId() + " of " + brokers + " (quorum "
          + kafka.quorum().votersText() + "), waiting for the others");
      FleetTopics.awaitBrokers(kafka.bootstrapServers(), brokers, waitForBrokers);
    }
    FleetTopics.ensure(kafka.bootstrapServers(), kafka.quorum().replicationFactor());
    System.out.println("kafka: bootstrap servers " + kafka.bootstrapServers() + ", data in " + kafka.dataDir());
    System.out.println(secure == null
        ? "kafka: PLAINTEXT on loopback: no TLS, no credentials, no ACLs (--secure DIR for SASL_SSL with ACLs)"
        : "kafka: SASL_SSL (SCRAM-SHA-512) with ACLs per role; client properties per role in " + secure
            + " (coordinator.properties, node.properties, router.properties, observer.properties, admin.properties)");
    System.out.println("kvfleet-kafka=" + kafka.bootstrapServers());
    System.out.println("kafka: topics " + String.join(", ", Topics.ALL) + " (replication factor "
        + kafka.quorum().replicationFactor() + "); logs in " + Kvfleet.logFile());
    var stop = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      kafka.close();
      stop.countDown();
    }));
    stop.await();
    return 0;
  }

  private EmbeddedKafka start() throws java.io.IOException {
    if (secure != null) {
      if (nodeId != null || voters != null) {
        throw KvfleetException.badInput("--secure runs a single broker; a cluster of brokers is PLAINTEXT here"
            + " (leave out --secure, or --node-id and --controller-quorum)");
      }
      var security = BrokerSecurity.prepare(secure, "127.0.0.1");
      return dataDir == null
          ? EmbeddedKafka.startSecured(Files.createTempDirectory("kvfleet-kafka-"), true, port, security)
          : EmbeddedKafka.startSecured(dataDir, false, port, security);
    }
    if (nodeId == null && voters == null) {
      return dataDir == null
          ? EmbeddedKafka.start(Files.createTempDirectory("kvfleet-kafka-"), true, port)
          : EmbeddedKafka.start(dataDir, false, port);
    }
    if (nodeId == null || voters == null || dataDir == null || port == 0) {
      throw KvfleetException.badInput("a cluster member needs --node-id, --controller-quorum, --data-dir and --port");
    }
    return EmbeddedKafka.startMember(dataDir, port, KraftQuorum.parse(nodeId, voters, clusterId));
  }
}
