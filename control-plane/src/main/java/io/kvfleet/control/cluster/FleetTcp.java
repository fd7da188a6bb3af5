package io.kvfleet.control.cluster;

import java.net.BindException;
import java.net.ConnectException;
import org.jgroups.PhysicalAddress;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.TCP;

/**
 * JGroups' TCP transport that binds the first free port of its range on a server socket per port,
 * and can tell whether a contact refuses connections, through its own connection table: the
 * connection it opens (TLS included) is the one later messages use, and a refused one leaves
 * nothing behind on either side.
 */
final class FleetTcp extends TCP {
  FleetTcp() {
    setId(ClassConfigurator.getProtocolId(TCP.class)); // TCP's headers: members of other builds read them
  }

  /**
   * Binds the first free port from the bind port through the port range, each tried on a server
   * socket of its own. JGroups tries the whole range on one socket, and Java's server sockets reuse
   * addresses: two members starting at once can both bind a port, and the one whose listen then
   * loses keeps that socket bound, so every later port of its range fails "Already bound" and the
   * member finds none of its ports free (RELIABILITY.md, "Cluster ports in the fault suite").
   */
  @Override
  public void start() throws Exception {
    int first = bind_port;
    int last = bind_port + port_range;
    if (first == 0) {
      super.start(); // any free port: no range to walk
      return;
    }
    try {
      for (int port = first; ; port++) {
        bind_port = port;
        port_range = 0; // one port: the socket JGroups makes is tried once, then closed
        var before = srv;
        try {
          super.start();
          return;
        } catch (BindException e) {
          if (srv != before) {
            throw e; // bound already: the failure came after the bind
          }
          if (port == last) {
            var none = new BindException("No available port to bind to in range [" + first + " .. " + last + "]");
            none.initCause(e);
            throw none;
          }
        }
      }
    } finally {
      bind_port = first;
      port_range = last - first;
    }
  }

  /**
   * Whether nobody listens at {@code contact}: the kernel there refused the connection. A contact
   * that accepts it, or does not answer within the connection timeout, is not refusing: it may be a
   * member that is starting, loaded or stopped for a while.
   */
  boolean refuses(PhysicalAddress contact) {
    try {
      srv.getConnection(contact);
      return false;
    } catch (ConnectException e) {
      return e.getMessage() != null && e.getMessage().contains("refused"); // not "timed out"
    } catch (Exception e) {
      return false;
    }
  }
}
