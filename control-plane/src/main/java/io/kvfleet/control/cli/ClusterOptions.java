package io.kvfleet.control.cli;

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

  @Option(names = "--cluster-name", defaultValue = "kvfleet", description = "EventBus cluster name (default: ${DEFAULT-VALUE})")
  String clusterName;

  @Option(names = "--cluster-host", defaultValue = "127.0.0.1", description = "Address to bind and advertise (default: ${DEFAULT-VALUE})")
  String clusterHost;

  @Option(names = "--cluster-members", split = ",", defaultValue = "127.0.0.1",
      description = "Other members to contact, comma-separated (default: ${DEFAULT-VALUE})")
  List<String> members;

  /**
   * Checks what can be checked at once, and fails with a message rather than wait: the cluster
   * host resolves, and Kafka answers; creates the fleet topics it lacks (up to three copies,
   * as many as the cluster has brokers).
   */
  void check() {
    ClusteredVertx.address(clusterHost);
    FleetTopics.ensure(bootstrapServers);
  }

  Vertx joinCluster() throws Exception {
    return ClusteredVertx.join(clusterName, clusterHost, members)
        .toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
  }
}
