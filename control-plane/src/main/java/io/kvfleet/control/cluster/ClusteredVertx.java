package io.kvfleet.control.cluster;

import io.kvfleet.control.KvfleetException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * A Vert.x instance whose EventBus spans processes, so coordinators reach every node agent. The
 * membership is Vert.x's Infinispan cluster manager over a JGroups stack of ours ({@link
 * MembershipStack}): TCP on the cluster host, discovery by member list (no multicast, which fleets
 * and containers rarely have), and with the fleet's certificates TLS that refuses any process
 * without one. (Hazelcast, used before, has neither member authentication nor TLS in its open-source
 * edition; see {@code docs/SECURITY.md}.)
 */
public final class ClusteredVertx {
  /** The cluster name of {@code kvfleet node} and {@code coordinator} when none is given. */
  public static final String DEFAULT_NAME = "kvfleet";
  /** The first port a member binds when none is given (JGroups' TCP). */
  public static final int DEFAULT_PORT = 7800;
  /** A member binds the first free port of this many from its cluster port; a host alone is looked for on them. */
  public static final int PORT_COUNT = 10;
  /** Vert.x's switch from Netty's DNS resolver to the JDK's. */
  static final String JDK_RESOLVER = "vertx.disableDnsResolver";

  private ClusteredVertx() {}

  /** The IP address of {@code hostName} (members bind interfaces by IP); a clear error when it has none. */
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
   * Joins the cluster named {@code clusterName}. The membership's transport and the EventBus listen
   * on {@code hostName}'s address only, and {@code security} protects both.
   *
   * @param hostName the address this process binds and advertises (e.g. 127.0.0.1 on one machine)
   * @param port the first of the {@link #PORT_COUNT} ports this member may bind
   * @param members other members to contact ({@link ClusterMembers}: host, host:port, host:first-last)
   * @param security how the connections between members are protected
   */
  public static Future<Vertx> join(String clusterName, String hostName, int port, List<String> members,
      BusSecurity security) {
    String host;
    FleetClusterManager manager;
    try {
      host = address(hostName);
      var channel = MembershipStack.channel(InetAddress.getByName(host), port, ClusterMembers.contacts(members, port),
          security);
      manager = FleetClusterManager.over(channel, clusterName);
    } catch (Exception e) {
      return Future.failedFuture(e);
    }
    // Netty's DNS resolver, Vert.x's default, keeps a UDP socket bound to every interface; the
    // JDK's resolver keeps none, so the process binds the cluster host only. Unless set otherwise.
    if (System.getProperty(JDK_RESOLVER) == null) {
      System.setProperty(JDK_RESOLVER, "true");
    }
    var bus = security.apply(new EventBusOptions().setHost(host).setClusterPublicHost(host));
    var options = new VertxOptions().setEventBusOptions(bus);
    return Vertx.builder().with(options).withClusterManager(manager).buildClustered();
  }
}
