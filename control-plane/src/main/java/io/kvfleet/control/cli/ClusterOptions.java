package io.kvfleet.control.cli;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.cluster.BusSecurity;
import io.kvfleet.control.cluster.ClusterMembers;
import io.kvfleet.control.cluster.ClusteredVertx;
import io.kvfleet.control.kafka.FleetTopics;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine.Option;

/** Options shared by the commands that join a fleet: Kafka and the clustered EventBus. */
final class ClusterOptions {
  @Option(names = "--bootstrap-servers", required = true, description = "The fleet's Kafka, e.g. 127.0.0.1:9092")
  String bootstrapServers;

  @picocli.CommandLine.Mixin KafkaConfigOption kafkaConfig;

  @Option(names = "--cluster-name", defaultValue = ClusteredVertx.DEFAULT_NAME, description = "EventBus cluster name;"
      + " processes with the same name and reachable ports form one fleet, so give each fleet its own (default: ${DEFAULT-VALUE})")
  String clusterName;

  @Option(names = "--cluster-port", defaultValue = "" + ClusteredVertx.DEFAULT_PORT, description = "First cluster port:"
      + " this process binds the first free one of the " + ClusteredVertx.PORT_COUNT + " from here (default: ${DEFAULT-VALUE})")
  int clusterPort;

  @Option(names = "--cluster-host", defaultValue = "127.0.0.1", description = "Address to bind and advertise (default: ${DEFAULT-VALUE})")
  String clusterHost;

  @Option(names = "--cluster-members", split = ",", defaultValue = "127.0.0.1", description = "Other members to"
      + " contact, comma-separated: host (its ports from --cluster-port), host:port or host:first-last (default: ${DEFAULT-VALUE})")
  List<String> members;

  @Option(names = "--cluster-tls-dir", description = "Mutual TLS on the EventBus: a directory with "
      + BusSecurity.MEMBER_FILE + " (this member's key and certificate), " + BusSecurity.TRUST_FILE
      + " (the fleet CA) and " + BusSecurity.PASSWORD_FILE + " (see docs/SECURITY.md); without it the bus is in the clear")
  Path tlsDir;

  private BusSecurity security;

  /**
   * Checks what can be checked at once, and fails with a message rather than wait: the port range,
   * the cluster host resolves, the members parse, the Kafka client settings and the bus's stores
   * read. Kafka itself is {@link #ensureTopics}, beside the join.
   */
  void check() {
    if (clusterPort < 1 || clusterPort > 65535 - ClusteredVertx.PORT_COUNT) {
      throw KvfleetException.badInput("--cluster-port must be 1 to " + (65535 - ClusteredVertx.PORT_COUNT) + ", not " + clusterPort);
    }
    ClusteredVertx.address(clusterHost);
    ClusterMembers.expand(members);
    kafkaConfig.apply(bootstrapServers);
    security();
  }

  /**
   * Fails with a message unless Kafka answers; creates the fleet topics it lacks (up to three
   * copies, as many as the cluster has brokers).
   */
  void ensureTopics() {
    FleetTopics.ensure(bootstrapServers);
  }

  /** The EventBus's protection, read (and its stores opened) on the first call. */
  BusSecurity security() {
    if (security == null) {
      security = tlsDir == null ? BusSecurity.plaintext() : BusSecurity.fromDirectory(tlsDir);
    }
    return security;
  }

  /** Begins joining the clustered EventBus; the Vert.x instance once joined. */
  CompletableFuture<Vertx> join() {
    if (security() instanceof BusSecurity.Plaintext) {
      System.err.println("kvfleet: WARNING the EventBus is in the clear (no --cluster-tls-dir): any process that joins"
          + " cluster '" + clusterName + "' can send to and receive from every member (docs/SECURITY.md)");
    }
    return ClusteredVertx.join(clusterName, clusterHost, clusterPort, members, security())
        .toCompletionStage().toCompletableFuture();
  }
}
