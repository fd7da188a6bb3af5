package io.kvfleet.control.cluster;

import io.kvfleet.control.KvfleetException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The members a process contacts to join its cluster, as the user gives them: {@code host} (the
 * ports {@link ClusteredVertx#PORT_COUNT} from the cluster port up), {@code host:port} or
 * {@code host:first-last}, expanded to the {@code host:port} entries a member contacts.
 */
public final class ClusterMembers {
  /** The most ports one range may name. */
  static final int MAX_RANGE = 1024;

  private ClusterMembers() {}

  /**
   * The addresses to contact, unresolved: a host alone stands for the {@link ClusteredVertx#PORT_COUNT}
   * ports from {@code clusterPort}, the ports a member binds by default; a malformed entry is a bad input.
   */
  public static List<InetSocketAddress> contacts(List<String> given, int clusterPort) {
    List<InetSocketAddress> contacts = new ArrayList<>();
    for (String entry : expand(given)) {
      int colon = portColon(entry);
      String host = unbracket(colon < 0 ? entry : entry.substring(0, colon));
      if (colon >= 0) {
        contacts.add(InetSocketAddress.createUnresolved(host, Integer.parseInt(entry.substring(colon + 1))));
        continue;
      }
      for (int p = clusterPort; p < clusterPort + ClusteredVertx.PORT_COUNT; p++) {
        contacts.add(InetSocketAddress.createUnresolved(host, p));
      }
    }
    return contacts;
  }

  /** Entries for {@code given}, each a host alone or {@code host:port}; a malformed entry is a bad input that names it. */
  public static List<String> expand(List<String> given) {
    List<String> members = new ArrayList<>();
    for (String raw : given) {
      String entry = raw.strip();
      if (entry.isEmpty()) {
        continue;
      }
      int colon = portColon(entry);
      if (colon < 0) {
        members.add(entry); // a host alone
        continue;
      }
      String host = entry.substring(0, colon);
      String ports = entry.substring(colon + 1);
      if (host.isEmpty()) {
        throw bad(raw, "no host before the port");
      }
      int dash = ports.indexOf('-');
      int first = port(raw, dash < 0 ? ports : ports.substring(0, dash));
      int last = dash < 0 ? first : port(raw, ports.substring(dash + 1));
      if (last < first) {
        throw bad(raw, "the range ends before it starts");
      }
      if (last - first + 1 > MAX_RANGE) {
        throw bad(raw, "a range may name at most " + MAX_RANGE + " ports");
      }
      for (int p = first; p <= last; p++) {
        members.add(host + ":" + p);
      }
    }
    return members;
  }

  /** The colon before the port, or -1: IPv6 addresses come in brackets when they have a port. */
  private static int portColon(String entry) {
    if (entry.startsWith("[")) {
      int close = entry.indexOf(']');
      return close > 0 && entry.startsWith(":", close + 1) ? close + 1 : -1;
    }
    int colon = entry.indexOf(':');
    return colon >= 0 && colon == entry.lastIndexOf(':') ? colon : -1;
  }

  private static String unbracket(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  private static int port(String raw, String text) {
    try {
      int port = Integer.parseInt(text);
      if (port >= 1 && port <= 65535) {
        return port;
      }
    } catch (NumberFormatException e) {
      // named below
    }
    throw bad(raw, "'" + text + "' is not a port (1 to 65535)");
  }

  private static KvfleetException bad(String raw, String why) {
    return KvfleetException.badInput("--cluster-members entry '" + raw + "': " + why
        + "; give host, host:port or host:first-last");
  }
}
