package io.kvfleet.engine.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code ucx_perftest -t ucp_put_bw} as a server and a client on loopback with a given
 * UCX_TLS, and reads the client's {@code Final:} line.
 */
final class PerftestRunner {
  private final String binary;

  PerftestRunner(String binary) {
    this.binary = binary;
  }

  /** One run; empty with the reason printed to {@code problems} when ucx_perftest failed. */
  Optional<Measurement> putBandwidth(String tls, long size, long iterations, StringBuilder problems) {
    int port = 20_000 + ThreadLocalRandom.current().nextInt(20_000);
    List<String> test = List.of("-t", "ucp_put_bw", "-s", Long.toString(size),
        "-n", Long.toString(iterations), "-w", Long.toString(Math.max(1, iterations / 10)),
        "-p", Integer.toString(port));
    try {
      Process server = start(tls, concat(List.of(binary), test));
      try {
        String output = "";
        boolean ok = false;
        // The server must listen before the client connects; on a busy machine that takes a while.
        for (int attempt = 0; attempt < 10 && !ok; attempt++) {
          Thread.sleep(300);
          Process client = start(tls, concat(List.of(binary, "127.0.0.1"), test));
          output = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
          ok = client.waitFor(120, TimeUnit.SECONDS) && client.exitValue() == 0;
          if (!ok && !output.contains("Connection refused")) {
            break;
          }
        }
        if (!ok) {
          problems.append("ucx_perftest client failed: ").append(output.strip()).append('\n');
          return Optional.empty();
        }
        Optional<Measurement> parsed = parse(output, size);
        if (parsed.isEmpty()) {
          problems.append("no Final: line in ucx_perftest output: ").append(output.strip()).append('\n');
        }
        return parsed;
      } finally {
        if (!server.waitFor(10, TimeUnit.SECONDS)) {
          server.destroyForcibly();
        }
      }
    } catch (IOException e) {
      problems.append("cannot run ").append(binary).append(": ").append(e.getMessage()).append('\n');
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /**
   * Reads {@code Final: <iterations> <p50 us> <avg us> <overall us> <avg MB/s> <overall MB/s> ...}:
   * the overall bandwidth (MB there is 2^20 bytes), as bytes, iterations and the time they imply.
   */
  static Optional<Measurement> parse(String output, long size) {
    for (String line : output.split("\n")) {
      String trimmed = line.trim();
      if (trimmed.startsWith("Final:")) {
        String[] fields = trimmed.substring("Final:".length()).trim().split("\\s+");
        long iterations = Long.parseLong(fields[0]);
        double overallMebibytesPerSecond = Double.parseDouble(fields[5]);
        long bytes = size * iterations;
        return Optional.of(new Measurement(bytes, iterations,
            Math.round(bytes / (overallMebibytesPerSecond * 1024 * 1024) * 1e9)));
      }
    }
    return Optional.empty();
  }

  private static Process start(String tls, List<String> command) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("UCX_TLS", tls);
    return builder.start();
  }

  private static List<String> concat(List<String> a, List<String> b) {
    return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
  }
}
