package io.kvfleet.engine.bench;

import io.kvfleet.engine.Engine;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.HostMemory;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.Registration;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The passive side of a two-process transfer, run as a child JVM: opens an engine, allocates and
 * registers one region, prints {@code READY <worker address> <remote key>} (base64) and answers
 * commands on stdin until {@code QUIT} or end of input:
 *
 * <ul>
 *   <li>{@code CRC <offset> <length>}: {@code CRC <crc32c hex>} of that slice of the region
 *   <li>{@code FILL <seed>}: fills the region with a pattern, {@code OK}
 * </ul>
 *
 * Arguments: {@code <backend> <bytes> <ucx transports or "-"> <event|busy>}.
 */
public final class TargetProcess {
  private TargetProcess() {}

  public static void main(String[] args) throws IOException {
    String backend = args[0];
    long bytes = Long.parseLong(args[1]);
    EngineConfig config = EngineConfig.defaults()
        .withName("bench-target")
        .withBackends(backend)
        .withUcxTransports(args[2].equals("-") ? "" : args[2])
        .withProgress(args[3].equals("busy") ? EngineConfig.Progress.BUSY_POLL
            : EngineConfig.Progress.EVENT);
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    try (Engine engine = Engine.open(config)) {
      HostMemory memory = engine.allocate("bench-target", bytes);
      Registration region = engine.register(RegionRequest.of(memory)).registration(backend)
          .orElseThrow(() -> new IllegalStateException(backend + " did not register the region: "
              + engine.capability(backend).map(Object::toString).orElse("no such backend")));
      out.println("READY " + engine.address(backend).toBase64() + " "
          + region.remoteKey().toBase64());
      serve(memory, out);
    } catch (RuntimeException e) {
      out.println("ERROR " + e);
      throw e;
    }
  }

  private static void serve(HostMemory memory, PrintStream out) throws IOException {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] words = line.trim().split("\\s+");
      switch (words[0]) {
        case "CRC" -> out.println("CRC " + Patterns.crc(memory.segment(), Long.parseLong(words[1]),
            Long.parseLong(words[2])));
        case "FILL" -> {
          Patterns.fill(memory.segment(), Long.parseLong(words[1]));
          out.println("OK");
        }
        case "QUIT" -> {
          return;
        }
        default -> out.println("ERROR unknown command " + words[0]);
      }
    }
  }
}
