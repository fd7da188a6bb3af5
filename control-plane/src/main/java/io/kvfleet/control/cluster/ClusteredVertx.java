package io.kvfleet.control.cluster;

import com.hazelcast.config.Config;
import io.kvfleet.control.KvfleetException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * A Vert.x instance whose EventBus spans processes (Hazelcast), so coordinators reach every node
 * agent. Discovery is by TCP member list: no multicast, which fleets and containers rarely have.
 */
public final class ClusteredVertx {
  private ClusteredVertx() {}

  /** The IP address of {@code hostName} (Hazelcast binds interfaces by IP); a clear error when it has none. */
  public static String address(String hostName) {
    try {
      return InetAddress.getByName(hostName).getHostAddress();
    } catch (UnknownHostException e) {
      throw KvfleetException.badInput("cannot resolve cluster host " + hostName);
    }
  }

  /**
   * Joins the cluster named {@code clusterName}.
   *
   * @param host the address this process binds and advertises (e.g. 127.0.0.1 on one machine)
   * @param members addresses of other members to contact (host or host:port)
   */
  public static Future<Vertx> join(String clusterName, String hostName, List<String> members) {
    String host;
    try {
      host = address(hostName);
    } catch (KvfleetException e) {
      return Future.failedFuture(e);
    }
    Config config = ConfigUtil.loadConfig().setClusterName(clusterName);
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.setProperty("hazelcast.logging.type", "slf4j");
    var network = config.getNetworkConfig();
    network.getInterfaces().setEnabled(true).addInterface(host);
    var join = network.getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).setMembers(members);
    var options = new VertxOptions().setEventBusOptions(new EventBusOptions().setHost(host));
    return Vertx.builder().with(options).withClusterManager(new HazelcastClusterManager(config)).buildClustered();
  }
}
