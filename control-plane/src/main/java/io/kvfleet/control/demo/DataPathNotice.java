package io.kvfleet.control.demo;

import io.kvfleet.control.dataplane.EngineDataPlane;
import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The demo's first lines: which data path each agent will use and why, and, when no backend that
 * reaches other hosts (UCX) is there or it is turned off, what that changes and how to get it.
 * Both agents open the same engine on this host, so one probe answers for both.
 */
public final class DataPathNotice {
  private static final String PREFIX = "kvfleet demo: ";

  private DataPathNotice() {}

  /** Opens a data plane as the agents will, reads its backends, and closes it. */
  public static List<String> probe() {
    try (var dataPlane = EngineDataPlane.open("demo-probe")) {
      return lines(dataPlane.capabilities(), dataPlane::reachesOtherHosts);
    }
  }

  /**
   * The notice for agents whose engines have {@code capabilities} (in the engine's order of
   * preference), of which {@code reachesOtherHosts} says which move bytes across hosts.
   */
  static List<String> lines(List<BackendCapability> capabilities, Predicate<String> reachesOtherHosts) {
    List<String> lines = new ArrayList<>();
    Optional<BackendCapability> chosen = capabilities.stream()
        .filter(c -> c.available() && c.memoryTypes().contains(MemoryType.DRAM)).findFirst();
    boolean crossHost = chosen.map(c -> reachesOtherHosts.test(c.backend())).orElse(false);
    List<BackendCapability> missing = capabilities.stream().filter(c -> !c.available()).toList();
    String path = chosen.map(DataPathNotice::describe).orElse("no backend (no engine backend registers host memory)");
    String why = chosen.map(c -> crossHost
        ? c.backend() + " is the first backend both agents register their host buffers with"
        : "the first backend both agents register their host buffers with; " + (missing.isEmpty()
            ? "this build has no backend that reaches other hosts"
            : String.join("; ", missing.stream().map(m -> m.backend() + " is unavailable: " + m.detail()).toList())))
        .orElse("");
    lines.add(PREFIX + DemoFleet.PREFILL + " sends its KV pages with " + path + (why.isEmpty() ? "" : ": " + why));
    lines.add(PREFIX + DemoFleet.DECODE + " receives them with " + chosen.map(BackendCapability::backend).orElse("nothing")
        + " (the same engine on the same host)");
    if (!crossHost) {
      boolean turnedOff = missing.stream().anyMatch(m -> m.detail().startsWith("turned off"));
      lines.add(PREFIX + "without UCX, bytes move only between processes of one host (through shared-memory grants of registered regions), never"
          + " across hosts, and the staged VRAM path has no wire to run on");
      lines.add(PREFIX + (turnedOff
          ? "UCX is off on purpose (KVFLEET_UCX=off); unset it to use UCX"
          : "to use UCX: apt-get install libucx0 ucx-utils (./kvfleet demo does it when run as root),"
              + " or run without it on purpose with KVFLEET_UCX=off"));
    }
    lines.add(PREFIX + "the agents' EventBus is in this JVM only (not clustered), so the demo cannot meet another fleet");
    return lines;
  }

  private static String describe(BackendCapability c) {
    return c.backend() + (c.version().isEmpty() ? "" : " " + c.version())
        + (c.transports().isEmpty() ? "" : " (transports " + String.join(", ", c.transports()) + ")");
  }
}
