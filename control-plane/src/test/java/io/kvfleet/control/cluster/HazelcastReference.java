package io.kvfleet.control.cluster;

import com.hazelcast.config.Config;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.List;

/** The clustered Vert.x kvfleet ran before (Hazelcast 5.3, TCP-IP join on the cluster host), kept as the bus bench's reference. */
final class HazelcastReference {
  private HazelcastReference() {}

  /** Joins as {@code ClusteredVertx.join} did on Hazelcast, in the clear (it had no closed membership). */
  static Future<Vertx> join(String clusterName, String host, int port, List<String> members) {
    Config config = ConfigUtil.loadConfig().setClusterName(clusterName);
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.setProperty("hazelcast.logging.type", "slf4j");
    config.setProperty("hazelcast.tcp.join.port.try.count", Integer.toString(ClusteredVertx.PORT_COUNT));
    config.setProperty("hazelcast.socket.bind.any", "false");
    var network = config.getNetworkConfig().setPort(port).setPortAutoIncrement(true).setPortCount(ClusteredVertx.PORT_COUNT);
    network.getInterfaces().setEnabled(true).addInterface(host);
    var join = network.getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).setMembers(ClusterMembers.expand(members));
    var options = new VertxOptions().setEventBusOptions(new EventBusOptions().setHost(host).setClusterPublicHost(host));
    return Vertx.builder().with(options).withClusterManager(new HazelcastClusterManager(config)).buildClustered();
  }
}
