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
  /** The cluster name of {@code kvfleet node} and {@code coordinator} when none is given. */
  public static final String DEFAULT_NAME = "kvfleet";
  /** The first port a member binds when none is given (Hazelcast's). */
  public static final int DEFAULT_PORT = 5701;
  /** A member binds the first free port of this many from its cluster port; a host alone is looked for on them. */
  public static final int PORT_COUNT = 10;

  private ClusteredVertx() {}

  /** The IP address of {@code hostName} (Hazelcast binds interfaces by IP); a clear error when it has none. */
  public static String address(String hostName) {
    try {
      return InetAddress.getByName(hostName).getHostAddress();
    } catch (UnknownHostException e) {
      throw KvfleetException.badInput("cannot resolve cluster host " + hostName);
    }
  }

  /** {@link #join(String, String, int, List, BusSecurity)} with the EventBus in the clear. */
  public static Future<Vertx> join(String clusterName, String hostName, int port, List<String> members) {
    return join(clusterName, hostName, port, members, BusSecurity.plaintext());
  }

  /**
   * Joins the cluster named {@code clusterName}. Both the Hazelcast member and the EventBus listen
   * on {@code hostName}'s address only (Hazelcast binds every interface unless told not to).
   *
   * @param hostName the address this process binds and advertises (e.g. 127.0.0.1 on one machine)
   * @param port the first of the {@link #PORT_COUNT} ports this member may bind
   * @param members other members to contact ({@link ClusterMembers}: host, host:port, host:first-last)
   * @param security how the EventBus's connections between members are protected
   */
  public static Future<Vertx> join(String clusterName, String hostName, int port, List<String> members,
      BusSecurity security) {
    String host;
    List<String> contacts;
    try {
      host = address(hostName);
      contacts = ClusterMembers.expand(members);
    } catch (KvfleetException e) {
      return Future.failedFuture(e);
    }
    Config config = ConfigUtil.loadConfig().setClusterName(clusterName);
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.setProperty("hazelcast.logging.type", "slf4j");
    config.setProperty("hazelcast.tcp.join.port.try.count", Integer.toString(PORT_COUNT));
    config.setProperty("hazelcast.socket.bind.any", "false");
    var network = config.getNetworkConfig().setPort(port).setPortAutoIncrement(true).setPortCount(PORT_COUNT);
    network.getInterfaces().setEnabled(true).addInterface(host);
    var join = network.getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).setMembers(contacts);
    var bus = security.apply(new EventBusOptions().setHost(host).setClusterPublicHost(host));
    var options = new VertxOptions().setEventBusOptions(bus);
    return Vertx.builder().with(options).withClusterManager(new HazelcastClusterManager(config)).buildClustered();
  }
}
