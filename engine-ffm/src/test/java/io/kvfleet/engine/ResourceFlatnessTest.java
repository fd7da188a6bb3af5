package io.kvfleet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Registering and deregistering 10,000 regions and running 100,000 batches leaves native memory
 * and open handles flat. Runs {@link ResourceChurn} in a child JVM whose heap is fixed and
 * pre-touched, so that RSS moves only with native memory.
 */
class ResourceFlatnessTest {
  private static final long MIB = 1024 * 1024;

  @ParameterizedTest(name = "through {0}")
  @ValueSource(strings = {"ucx,host", "host"})
  void churnLeavesMemoryAndHandlesFlat(String backends) throws IOException, InterruptedException {
    Map<String, long[]> results = churn(backends);

    assertThat(results).containsKeys("rss", "fds", "malloc");
    long[] rss = results.get("rss");
    long[] fds = results.get("fds");
    long[] malloc = results.get("malloc");
    assertThat(fds[1] - fds[0]).as("open file descriptors, before %d after %d", fds[0], fds[1])
        .isLessThanOrEqualTo(2);
    // 8 MiB over 10,000 registrations and 100,000 batches: a leak of 80 bytes a batch or 800 a
    // registration fails; the JIT's and GC's own malloc use on a loaded 2-core machine does not.
    assertThat(malloc[1] - malloc[0])
        .as("bytes held by malloc, before %d after %d", malloc[0], malloc[1])
        .isLessThan(8 * MIB);
    assertThat(rss[1] - rss[0]).as("RSS, before %d after %d", rss[0], rss[1])
        .isLessThan(16 * MIB);
  }

  private static Map<String, long[]> churn(String backends) throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process process = new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED",
        // C1 only: C2's arenas grew malloc by 5-20 MiB between runs on a loaded machine, noise that
        // hid nothing of the engine's own (with C1 the same churn moves malloc by about 0.1 MiB).
        "-Xms96m", "-Xmx96m", "-XX:+AlwaysPreTouch", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
        ResourceChurn.class.getName(), backends))
        .redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as("churn output:%n%s", output).isZero();
    Map<String, long[]> results = new HashMap<>();
    for (String line : output.split("\n")) {
      if (line.startsWith("RESULT ")) {
        String[] words = line.split(" ");
        results.put(words[1], new long[] {Long.parseLong(words[2]), Long.parseLong(words[3])});
      }
    }
    System.out.println("resource churn through " + backends + ": " + output.trim());
    return results;
  }
}
