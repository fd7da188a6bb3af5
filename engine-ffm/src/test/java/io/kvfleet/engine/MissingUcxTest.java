package io.kvfleet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.engine.bench.ChildTarget;
import io.kvfleet.engine.bench.Patterns;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Without libucp (hidden from a separate JVM through KVFLEET_UCX_LIBRARY), or with UCX turned off
 * on purpose (KVFLEET_UCX=off), the node still starts on the host backend and says why UCX is absent.
 */
class MissingUcxTest {
  private static final Map<String, String> HIDDEN = Map.of("KVFLEET_UCX_LIBRARY", "libucp-hidden.so.0");

  @Test
  void theEngineStartsOnTheHostBackendAndSaysWhyUcxIsAbsent() throws IOException, InterruptedException {
    String output = engineInfo(HIDDEN);
    assertThat(output).contains("ucx unavailable: libucp-hidden.so.0 not found");
  }

  @Test
  void ucxTurnedOffOnPurposeIsNotLoadedAndSaysSo() throws IOException, InterruptedException {
    String output = engineInfo(Map.of("KVFLEET_UCX", "off"));
    assertThat(output).contains("ucx unavailable: turned off (KVFLEET_UCX=off)");
  }

  /** Runs EngineInfo in a JVM with {@code environment}; checks the host backend carries it alone. */
  private static String engineInfo(Map<String, String> environment) throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder builder = new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED",
        "-cp", System.getProperty("java.class.path"), EngineInfo.class.getName()))
        .redirectErrorStream(true);
    builder.environment().putAll(environment);
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

    assertThat(process.exitValue()).as(output).isZero();
    assertThat(output).contains("host available");
    String usable = output.lines().filter(l -> l.startsWith("usable backends:")).findFirst().orElseThrow();
    assertThat(usable).contains("host").doesNotContain("ucx");
    return output;
  }

  @Test
  void aNodeWithoutUcxStillMovesBytesThroughTheHostBackend() {
    long bytes = 1 << 20;
    try (ChildTarget node = ChildTarget.start("host", bytes, "", false, HIDDEN);
        Engine engine = Engine.open(EngineConfig.defaults().withBackends("host"))) {
      HostMemory memory = engine.allocate("source", bytes);
      Patterns.fill(memory.segment(), 3);
      Registration source = engine.register(RegionRequest.of(memory)).registration("host").orElseThrow();
      Peer peer = engine.connect(node.address());
      TransferResult result = peer.write(new TransferBatch().add(source, 0, peer.attach(node.key()), 0, bytes));

      assertThat(result.succeeded()).isTrue();
      assertThat(node.crc(0, bytes)).isEqualTo(Patterns.crc(memory.segment(), 0, bytes));
    }
  }
}
