package io.kvfleet.control.demo;

import io.kvfleet.engine.Capability;
import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The demo's first lines: which data path each agent will use and why, and, when UCX is missing or
 * turned off, what that changes and how to get it. Both agents open the same engine on this host,
 * so one probe answers for both.
 */
public final class DataPathNotice {
  private static final String PREFIX = "kvfleet demo: ";

  private DataPathNotice() {}

  /** Opens an engine as the agents will, reads its backends, and closes it. */
  public static List<String> probe() {
    try (Engine engine = Engine.open(EngineConfig.defaults().withName("demo-probe"))) {
      return lines(engine.capabilities());
    }
  }

  /** The notice for agents whose engines have {@code capabilities} (in the engine's order of preference). */
  static List<String> lines(List<Capability> capabilities) {
    List<String> lines = new ArrayList<>();
    Optional<Capability> chosen = capabilities.stream().filter(c -> c.supports(MemoryType.DRAM)).findFirst();
    Optional<Capability> ucx = capabilities.stream().filter(c -> c.backend().equals("ucx")).findFirst();
    String path = chosen.map(DataPathNotice::describe).orElse("no backend (no engine backend registers host memory)");
    String why = chosen.map(c -> c.backend().equals("ucx")
        ? "UCX is the first backend both agents register their host buffers with"
        : "the first backend both agents register their host buffers with; "
            + ucx.map(u -> "ucx " + (u.available() ? "does not register host memory" : "is unavailable: " + u.detail()))
                .orElse("this build has no ucx backend"))
        .orElse("");
    lines.add(PREFIX + DemoFleet.PREFILL + " sends its KV pages with " + path + (why.isEmpty() ? "" : ": " + why));
    lines.add(PREFIX + DemoFleet.DECODE + " receives them with " + chosen.map(Capability::backend).orElse("nothing")
        + " (the same engine on the same host)");
    boolean usesUcx = chosen.map(c -> c.backend().equals("ucx")).orElse(false);
    if (!usesUcx) {
      boolean turnedOff = ucx.map(u -> u.detail().startsWith("turned off")).orElse(false);
      lines.add(PREFIX + "without UCX, bytes move only between processes of one host (process_vm_writev), never"
          + " across hosts, and the staged VRAM path has no wire to run on");
      lines.add(PREFIX + (turnedOff
          ? "UCX is off on purpose (KVFLEET_UCX=off); unset it to use UCX"
          : "to use UCX: apt-get install libucx0 ucx-utils (./kvfleet demo does it when run as root),"
              + " or run without it on purpose with KVFLEET_UCX=off"));
    }
    lines.add(PREFIX + "the agents' EventBus is in this JVM only (not clustered), so the demo cannot meet another fleet");
    return lines;
  }

  private static String describe(Capability c) {
    return c.backend() + (c.version().isEmpty() ? "" : " " + c.version())
        + (c.transports().isEmpty() ? "" : " (transports " + String.join(", ", c.transports()) + ")");
  }
}
