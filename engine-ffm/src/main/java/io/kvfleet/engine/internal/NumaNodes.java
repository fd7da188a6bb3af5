package io.kvfleet.engine.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** The NUMA nodes this host has, for DRAM regions that name one as their device. */
public final class NumaNodes {
  private NumaNodes() {}

  private static final Path NODES = Path.of("/sys/devices/system/node");

  /** Why NUMA node {@code node} cannot hold a region, or empty when it can (or none is named). */
  public static Optional<String> problemWith(int node) {
    if (node < 0) {
      return Optional.empty();
    }
    if (Files.isDirectory(NODES.resolve("node" + node))) {
      return Optional.empty();
    }
    return Optional.of("NUMA node " + node + " is not present on this host (online: " + online() + ")");
  }

  /** The kernel's list of online nodes, e.g. {@code 0-1}. */
  public static String online() {
    try {
      return Files.readString(NODES.resolve("online")).trim();
    } catch (IOException e) {
      return "unknown: " + e.getMessage();
    }
  }
}
