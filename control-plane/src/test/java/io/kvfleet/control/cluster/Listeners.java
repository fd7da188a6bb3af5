package io.kvfleet.control.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The TCP sockets a process listens on and the UDP sockets it bound, as {@code ss -ltnp} finds them: its socket inodes matched in {@code /proc/net/tcp}, {@code udp} and their {@code 6}. */
final class Listeners {
  private static final String LISTEN = "0A";

  private Listeners() {}

  /** A listening socket: its local address and port. */
  record Listener(InetAddress address, int port) {
    @Override
    public String toString() {
      return address.getHostAddress() + ":" + port;
    }
  }

  /** What process {@code pid} listens on now (TCP). */
  static List<Listener> of(long pid) throws IOException {
    return sockets(pid, List.of("/proc/net/tcp", "/proc/net/tcp6"), LISTEN);
  }

  /** The UDP sockets process {@code pid} has bound now (a UDP socket receives from anyone once bound). */
  static List<Listener> udpOf(long pid) throws IOException {
    return sockets(pid, List.of("/proc/net/udp", "/proc/net/udp6"), null);
  }

  private static List<Listener> sockets(long pid, List<String> tables, String state) throws IOException {
    Set<String> inodes = new HashSet<>();
    try (var fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      for (Path fd : fds.toList()) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(target.substring(8, target.length() - 1));
          }
        } catch (IOException closed) {
          // the descriptor closed while we looked
        }
      }
    }
    List<Listener> found = new ArrayList<>();
    for (String table : tables) {
      List<String> lines = Files.readAllLines(Path.of(table));
      for (String line : lines.subList(1, lines.size())) {
        String[] f = line.strip().split("\\s+");
        if ((state == null || f[3].equals(state)) && inodes.contains(f[9])) {
          String[] local = f[1].split(":");
          found.add(new Listener(address(local[0]), Integer.parseInt(local[1], 16)));
        }
      }
    }
    return found;
  }

  /** /proc/net writes an address as 32-bit words in host (little-endian) order. */
  private static InetAddress address(String hex) throws IOException {
    byte[] bytes = new byte[hex.length() / 2];
    for (int word = 0; word < bytes.length / 4; word++) {
      for (int b = 0; b < 4; b++) {
        bytes[word * 4 + b] = (byte) Integer.parseInt(hex.substring(word * 8 + (3 - b) * 2, word * 8 + (3 - b) * 2 + 2), 16);
      }
    }
    return InetAddress.getByAddress(bytes);
  }
}
