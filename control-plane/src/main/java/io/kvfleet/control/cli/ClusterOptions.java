package io.kvfleet.control.cli;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.cluster.ClusterMembers;
import io.kvfleet.control.cluster.ClusteredVertx;
import io.kvfleet.control.kafka.FleetTopics;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.concurrent.TimeUnit;
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

  /**
   * Checks what can be checked at once, and fails with a message rather than wait: the cluster
   * host resolves, and Kafka answers; creates the fleet topics it lacks (up to three copies,
   * as many as the cluster has brokers).
   */
  void check() {
    if (clusterPort < 1 || clusterPort > 65535 - ClusteredVertx.PORT_COUNT) {
      throw KvfleetException.badInput("--cluster-port must be 1 to " + (65535 - ClusteredVertx.PORT_COUNT) + ", not " + clusterPort);
    }
    ClusteredVertx.address(clusterHost);
    ClusterMembers.expand(members);
    kafkaConfig.apply(bootstrapServers);
    FleetTopics.ensure(bootstrapServers);
  }

  Vertx joinCluster() throws Exception {
    return ClusteredVertx.join(clusterName, clusterHost, clusterPort, members)
        .toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
  }
}
