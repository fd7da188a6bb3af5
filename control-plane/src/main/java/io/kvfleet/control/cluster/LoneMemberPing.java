package io.kvfleet.control.cluster;

import java.util.ArrayList;
import java.util.List;
import org.jgroups.Address;
import org.jgroups.Event;
import org.jgroups.PhysicalAddress;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.TCPPING;
import org.jgroups.util.Responses;

/**
 * Discovery by the member list ({@link TCPPING}) that ends a member's first discovery at once when
 * every contact refused the connection, so a member alone founds its view without waiting GMS's
 * join timeout; any contact that accepts or does not answer keeps the full wait.
 *
 * <p>Why two members cannot both found a view this way: a member's transport is bound before it
 * discovers, so if A saw B's port refuse, B bound after A's probe, hence after A bound, and B's
 * probe of A's port found A listening. The member that finds the other listening may still catch it
 * between its decision and its view (answering as a joiner, not a coordinator); it then waits, and
 * its next discovery round finds the new coordinator, since each first discovery is sent
 * {@link #DISCOVERY_RUNS} times within the join timeout.
 */
final class LoneMemberPing extends TCPPING {
  /** How often a joining member sends its discovery request within the join timeout. */
  static final int DISCOVERY_RUNS = 3;

  private Responses probed; // the first discovery's responses, probed once for all its runs
  private volatile boolean foundedAlone;

  LoneMemberPing() {
    setId(ClassConfigurator.getProtocolId(TCPPING.class)); // TCPPING's headers: members of other builds read them
    num_discovery_runs = DISCOVERY_RUNS;
  }

  /** Whether this member's discovery ended early because every contact refused the connection. */
  boolean foundedAlone() {
    return foundedAlone;
  }

  @Override
  public void findMembers(List<Address> members, boolean initialDiscovery, Responses responses) {
    super.findMembers(members, initialDiscovery, responses);
    if (initialDiscovery && transport instanceof FleetTcp tcp && firstRunOf(responses)) {
      Thread.ofVirtual().name("kvfleet-lone-member-probe").start(() -> endIfAlone(tcp, responses));
    }
  }

  private synchronized boolean firstRunOf(Responses responses) {
    if (probed == responses) {
      return false;
    }
    probed = responses;
    return true;
  }

  private void endIfAlone(FleetTcp tcp, Responses responses) {
    List<PhysicalAddress> contacts = contacts();
    for (PhysicalAddress contact : contacts) {
      if (responses.isDone() || !tcp.refuses(contact)) {
        return; // someone listens there (or answered already): the join goes the usual way
      }
    }
    if (responses.isEmpty()) {
      foundedAlone = true;
      log.info("%s: all %d contacts refused the connection: nobody else is up, founding the view now",
          local_addr, contacts.size());
      responses.done();
    }
  }

  /** The addresses discovery sends to (those of {@link TCPPING#findMembers}), this member's own left out. */
  private List<PhysicalAddress> contacts() {
    var self = (PhysicalAddress) down(new Event(Event.GET_PHYSICAL_ADDRESS, local_addr));
    List<PhysicalAddress> contacts = new ArrayList<>();
    for (var hosts : List.of(initial_hosts, dynamic_hosts)) {
      hosts.stream().filter(h -> !h.equals(self) && !contacts.contains(h)).forEach(contacts::add);
    }
    return contacts;
  }
}
