package io.kvfleet.control.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Cluster ports for a fleet of its own on one machine (tests, the fault suite): a base whose {@link ClusteredVertx#PORT_COUNT} ports are free now. */
public final class FreePorts {
  private FreePorts() {}

  /** The first of {@link ClusteredVertx#PORT_COUNT} consecutive ports free on loopback. */
  public static int clusterBase() throws IOException {
    for (int attempt = 0; attempt < 100; attempt++) {
      int base;
      try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        base = socket.getLocalPort();
      }
      if (base + ClusteredVertx.PORT_COUNT <= 65535 && allFree(base)) {
        return base;
      }
    }
    throw new IOException("no " + ClusteredVertx.PORT_COUNT + " consecutive free ports found on loopback");
  }

  /** {@code host:first-last} for a fleet whose members bind from {@code base}. */
  public static String members(int base) {
    return "127.0.0.1:" + base + "-" + (base + ClusteredVertx.PORT_COUNT - 1);
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
