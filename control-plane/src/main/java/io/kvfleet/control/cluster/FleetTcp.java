package io.kvfleet.control.cluster;

import java.net.ConnectException;
import org.jgroups.PhysicalAddress;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.TCP;

/**
 * JGroups' TCP transport that can tell whether a contact refuses connections, through its own
 * connection table: the connection it opens (TLS included) is the one later messages use, and a
 * refused one leaves nothing behind on either side.
 */
final class FleetTcp extends TCP {
  FleetTcp() {
    setId(ClassConfigurator.getProtocolId(TCP.class)); // TCP's headers: members of other builds read them
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
