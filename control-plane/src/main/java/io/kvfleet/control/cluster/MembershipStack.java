package io.kvfleet.control.cluster;

import io.kvfleet.control.KvfleetException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jgroups.JChannel;
import org.jgroups.protocols.BARRIER;
import org.jgroups.protocols.FD_ALL3;
import org.jgroups.protocols.FRAG2;
import org.jgroups.protocols.MERGE3;
import org.jgroups.protocols.MFC;
import org.jgroups.protocols.TCP;
import org.jgroups.protocols.UFC;
import org.jgroups.protocols.UNICAST3;
import org.jgroups.protocols.VERIFY_SUSPECT2;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.pbcast.NAKACK2;
import org.jgroups.protocols.pbcast.STABLE;
import org.jgroups.stack.Protocol;

/**
 * The JGroups stack under the cluster membership: one TCP listener on the cluster host (TLS with
 * client authentication when the fleet has certificates), discovery by the given member list, no
 * multicast, no diagnostics socket, and none of the protocols that open sockets of their own
 * ({@code FD_SOCK2}, {@code MPING}): every byte between members crosses the one transport.
 */
final class MembershipStack {
  /** A member that sent no heartbeat for this long is suspected (see {@link #failureDetection}). */
  static final Duration SUSPECT_AFTER = Duration.ofSeconds(6);
  /**
   * How long a joining member waits for an answer before it founds a view of its own, unless every
   * contact refused the connection ({@link LoneMemberPing}).
   */
  static final Duration JOIN_TIMEOUT = Duration.ofSeconds(5);
  /** How often each member heartbeats. */
  static final Duration HEARTBEAT = Duration.ofSeconds(1);

  private MembershipStack() {}

  /**
   * A channel, not yet connected, over {@link #of}'s protocols, with JGroups' diagnostics off: they
   * would listen on a UDP multicast socket of every interface. (JGroups turns them off for a stack
   * built in code already; this says so rather than rely on it.)
   */
  static JChannel channel(InetAddress host, int port, List<InetSocketAddress> contacts, BusSecurity security)
      throws Exception {
    var channel = new JChannel(of(host, port, contacts, security));
    channel.getProtocolStack().getTransport().getDiagnosticsHandler().setEnabled(false);
    return channel;
  }

  /**
   * The protocols, bottom first, for a member binding {@code host} from {@code port} that contacts
   * {@code contacts} ({@link ClusterMembers#contacts}); an unresolvable contact is a bad input.
   */
  static List<Protocol> of(InetAddress host, int port, List<InetSocketAddress> contacts, BusSecurity security) {
    TCP transport = new FleetTcp().setBindAddress(host).setBindPort(port).setPortRange(ClusteredVertx.PORT_COUNT - 1);
    transport.setClientBindAddr(host); // connections out leave from the cluster host too
    security.secure(transport);
    List<Protocol> stack = new ArrayList<>();
    stack.add(transport);
    stack.add(new LoneMemberPing().setInitialHosts(resolved(contacts)).setPortRange(0));
    stack.add(new MERGE3().setMinInterval(2_000).setMaxInterval(6_000));
    stack.addAll(failureDetection());
    stack.add(new BARRIER());
    stack.add(new NAKACK2().useMcastXmit(false));
    stack.add(new UNICAST3());
    stack.add(new STABLE());
    // How long a member waits for the view's coordinator to answer before it founds a view of its
    // own. A loaded host's first TLS handshakes took more than 2 s (the bench's closed members then
    // founded two views and merged them later), so 5 s; a member whose contacts all refuse skips it.
    stack.add(new GMS().setJoinTimeout(JOIN_TIMEOUT.toMillis()).printLocalAddress(false)); // no banner on stdout
    stack.add(new UFC());
    stack.add(new MFC());
    stack.add(new FRAG2());
    return stack;
  }

  /**
   * Heartbeats over the transport only: a killed member leaves the view within {@link #SUSPECT_AFTER}
   * plus a second's check, while a member stopped for a few seconds (a GC pause, the fault suite's
   * SIGSTOP of three 0.9 s leases) stays in it. {@code FD_SOCK2} would see a kill at once, but it
   * listens on a socket of its own outside the TLS transport.
   */
  private static List<Protocol> failureDetection() {
    return List.of(new FD_ALL3().setInterval(HEARTBEAT.toMillis()).setTimeout(SUSPECT_AFTER.toMillis()),
        new VERIFY_SUSPECT2().setTimeout(1_000));
  }

  private static List<InetSocketAddress> resolved(List<InetSocketAddress> contacts) {
    List<InetSocketAddress> resolved = new ArrayList<>();
    for (var contact : contacts) {
      try {
        resolved.add(new InetSocketAddress(InetAddress.getByName(contact.getHostString()), contact.getPort()));
      } catch (UnknownHostException e) {
        throw KvfleetException.badInput("--cluster-members: cannot resolve " + contact.getHostString());
      }
    }
    return resolved;
  }
}
