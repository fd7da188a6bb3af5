package io.kvfleet.control.ops;

import io.kvfleet.control.demo.DemoFleet;
import io.kvfleet.control.kafka.EmbeddedKafka;
import io.kvfleet.control.kafka.FleetTopics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A demo fleet on its own embedded broker whose coordinator serves the ops API on a free port. */
final class OpsFleet implements AutoCloseable {
  final EmbeddedKafka kafka;
  final DemoFleet fleet;
  final String base;
  final String token;
  final String dashboardUrl;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  OpsFleet(boolean protectMetrics, int rate) throws Exception {
    kafka = EmbeddedKafka.startInTempDir();
    FleetTopics.ensure(kafka.bootstrapServers(), (short) 1);
    var options = OpsOptions.loopback(0, ApiToken.resolve(null, java.util.Map.of())).withProtectedMetrics(protectMetrics);
    fleet = new DemoFleet(kafka.bootstrapServers(), options);
    fleet.start(rate);
    dashboardUrl = fleet.dashboardUrl().orElseThrow();
    var uri = URI.create(dashboardUrl);
    base = "http://" + uri.getHost() + ":" + uri.getPort();
    token = options.token().value();
  }

  HttpResponse<String> get(String path) throws Exception {
    return send(HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + token));
  }

  HttpResponse<String> getWithout(String path) throws Exception {
    return send(HttpRequest.newBuilder(URI.create(base + path)));
  }

  HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return http.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
  }

  HttpClient http() {
    return http;
  }

  @Override
  public void close() throws Exception {
    try {
      fleet.close();
    } catch (java.util.concurrent.TimeoutException e) {
      // What each thread was doing when the demo's close gave up: the failure's own evidence.
      Thread.getAllStackTraces().forEach((thread, frames) -> System.err.println("OpsFleet.close: " + thread
          + java.util.Arrays.stream(frames).map(f -> "\n    at " + f).collect(java.util.stream.Collectors.joining())));
      throw e;
    } finally {
      kafka.close();
    }
  }
}
