package io.kvfleet.control.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvfleet.control.kafka.Await;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real Prometheus server (Debian's) scrapes a running demo fleet's coordinator and answers queries on its series. */
class PrometheusIT {
  private static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");
  private static final Path PROMTOOL = Path.of("/usr/bin/promtool");
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();

  @TempDir Path dir;

  @Test
  void prometheusScrapesTheCoordinatorAndQueriesKvfleetSeries() throws Exception {
    assumeTrue(Files.isExecutable(PROMETHEUS) && Files.isExecutable(PROMTOOL),
        "SKIPPED: prometheus and promtool are not installed (apt-get install prometheus); .ci/run installs them");
    try (var ops = new OpsFleet(false, 20)) {
      var target = URI.create(ops.base);
      var config = Files.writeString(dir.resolve("prometheus.yml"), """
          global:
            scrape_interval: 1s
          scrape_configs:
            - job_name: kvfleet-coordinator
              static_configs:
                - targets: ['%s:%d']
          """.formatted(target.getHost(), target.getPort()));
      var check = new ProcessBuilder(PROMTOOL.toString(), "check", "config", config.toString())
          .redirectErrorStream(true).start();
      String checked = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(check.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(check.exitValue()).as(checked).isZero();

      int port = freePort();
      var log = dir.resolve("prometheus.log");
      var server = new ProcessBuilder(PROMETHEUS.toString(), "--config.file=" + config,
          "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port)
          .redirectErrorStream(true).redirectOutput(log.toFile()).start();
      try {
        String api = "http://127.0.0.1:" + port + "/api/v1/query?query=";
        Await.until("Prometheus to scrape the coordinator", Duration.ofSeconds(90),
            () -> !result(api, "up{job=\"kvfleet-coordinator\"} == 1").isEmpty());
        Await.until("completed transfers in Prometheus", Duration.ofSeconds(60),
            () -> !result(api, "kvfleet_transfers_total{outcome=\"completed\"} > 0").isEmpty());
        var failures = result(api, "sum by (backend) (kvfleet_registrations_total{outcome=\"failed\",memory_type=\"VRAM\"})");
        assertThat(failures).extracting(r -> r.at("/metric/backend").asText()).contains("ucx");
        var p99 = result(api, "histogram_quantile(0.99, sum by (le) (kvfleet_transfer_phase_seconds_bucket{phase=\"end_to_end\"}))");
        assertThat(p99).hasSize(1);
        assertThat(p99.get(0).at("/value/1").asDouble()).as("p99 end to end, seconds").isPositive();
      } finally {
        server.destroy();
        if (!server.waitFor(20, TimeUnit.SECONDS)) {
          server.destroyForcibly();
        }
      }
    }
  }

  private JsonNode result(String api, String query) {
    try {
      var answer = http.send(HttpRequest.newBuilder(URI.create(api + URLEncoder.encode(query, StandardCharsets.UTF_8)))
          .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
      if (answer.statusCode() != 200) {
        return JSON.createArrayNode();
      }
      return JSON.readTree(answer.body()).at("/data/result");
    } catch (java.io.IOException e) {
      return JSON.createArrayNode(); // not listening yet
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static int freePort() throws java.io.IOException {
    try (var socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
