package io.kvfleet.control.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Cluster ports for a fleet of its own on one machine (tests, the fault suite): a base whose {@link ClusteredVertx#PORT_COUNT} ports are free now. */
public final class FreePorts {
  private FreePorts() {}

  /**
   * The first of {@link ClusteredVertx#PORT_COUNT} consecutive ports free on loopback, below the
   * kernel's ephemeral range: a port in that range that is free now can be taken by any outgoing
   * connection (another test's, another fleet's) before the member binds it.
   */
  public static int clusterBase() throws IOException {
    int below = ephemeralLow();
    var random = java.util.concurrent.ThreadLocalRandom.current();
    for (int attempt = 0; attempt < 100; attempt++) {
      int base = random.nextInt(10_000, below - ClusteredVertx.PORT_COUNT);
      if (allFree(base)) {
        return base;
      }
    }
    throw new IOException("no " + ClusteredVertx.PORT_COUNT + " consecutive free ports found on loopback");
  }

  /**
   * {@code n} ports free on loopback now, all different: each socket stays open until all are taken (taken one
   * at a time, the kernel once handed the same port to two brokers' controllers, and the cluster never formed).
   */
  public static int[] distinct(int n) {
    var sockets = new java.util.ArrayList<ServerSocket>();
    try {
      for (int i = 0; i < n; i++) {
        sockets.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
      }
      return sockets.stream().mapToInt(ServerSocket::getLocalPort).toArray();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("no free port on the loopback interface", e);
    } finally {
      for (var socket : sockets) {
        try {
          socket.close();
        } catch (IOException e) {
          // a listening socket that does not close is still no port anyone else holds
        }
      }
    }
  }

  /** {@code host:first-last} for a fleet whose members bind from {@code base}. */
  public static String members(int base) {
    return "127.0.0.1:" + base + "-" + (base + ClusteredVertx.PORT_COUNT - 1);
  }

  /** The lowest port the kernel hands out to outgoing connections (Linux's default when it cannot say). */
  private static int ephemeralLow() {
    try {
      String range = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/sys/net/ipv4/ip_local_port_range"));
      int low = Integer.parseInt(range.trim().split("\\s+")[0]);
      return low > 10_000 + 10 * ClusteredVertx.PORT_COUNT ? low : 32_768;
    } catch (IOException | RuntimeException e) {
      return 32_768;
    }
  }

  private static boolean allFree(int base) {
    for (int p = base; p < base + ClusteredVertx.PORT_COUNT; p++) {
      try (var socket = new ServerSocket(p, 1, InetAddress.getLoopbackAddress())) {
        socket.setReuseAddress(true);
      } catch (IOException e) {
        return false;
      }
    }
    return true;
  }
}
