package io.kvfleet.control.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvfleet.control.kafka.Await;
import io.kvfleet.control.replay.LogSource;
import io.kvfleet.control.replay.ReplayRunner;
import io.kvfleet.events.snapshot.StateHash;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.replay.ExplainTarget;
import io.kvfleet.events.replay.LogRecord;
import io.kvfleet.events.replay.Replay;
import io.kvfleet.events.replay.ReplayOptions;
import io.kvfleet.events.state.FleetState;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The coordinator's ops API against a running demo fleet on its own embedded broker. */
class OpsApiIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static OpsFleet ops;

  @BeforeAll
  static void start() throws Exception {
    ops = new OpsFleet(false, 20);
    Await.until("a completed transfer and the VRAM failures", Duration.ofSeconds(90), () -> {
      try {
        var s = json(ops.get("/api/v1/summary"));
        return s.at("/counts/completed").asLong() >= 3 && s.at("/counts/registrationFailures").asLong() > 0;
      } catch (Exception e) {
        return false;
      }
    });
  }

  @AfterAll
  static void stop() throws Exception {
    ops.close();
  }

  @Test
  void withoutTheTokenTheApiAndTheDashboardAnswer401() throws Exception {
    assertThat(ops.getWithout("/api/v1/peers").statusCode()).isEqualTo(401);
    assertThat(ops.getWithout("/api/v1/peers").body()).contains("Authorization: Bearer");
    assertThat(ops.getWithout("/").statusCode()).isEqualTo(401);
    var wrong = ops.send(HttpRequest.newBuilder(URI.create(ops.base + "/api/v1/peers"))
        .header("Authorization", "Bearer not-the-token"));
    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(wrong.body()).contains("not this coordinator's");
    assertThat(ops.getWithout("/?access_token=" + ops.token).statusCode()).isEqualTo(200);
  }

  @Test
  void healthReadinessAndMetricsAreOpen() throws Exception {
    assertThat(ops.getWithout("/health").statusCode()).isEqualTo(200);
    var ready = ops.getWithout("/ready");
    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(json(ready).get("ready").asBoolean()).isTrue();
    String lag = "kvfleet_consumer_lag_records{partition=\"0\",topic=\"kvfleet.transfers\"}";
    Await.until("the lag (asked of Kafka every 2 s) and the EventBus's first messages", Duration.ofSeconds(30), () -> {
      try {
        String body = ops.getWithout("/metrics").body();
        return body.contains(lag) && body.contains("vertx_eventbus_");
      } catch (Exception e) {
        return false;
      }
    });
    var metrics = ops.getWithout("/metrics");
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.body())
        .contains("kvfleet_transfers_total{outcome=\"completed\",reason=\"NONE\"}")
        .contains("kvfleet_transfer_phase_seconds_bucket{phase=\"end_to_end\"")
        .contains("kvfleet_registrations_total{backend=\"ucx\",kind=\"STATE\",memory_type=\"VRAM\",outcome=\"failed\"")
        .contains("kvfleet_peers_alive{role=\"prefill\"} 1.0")
        .contains("kvfleet_consumer_lag_records{partition=\"0\",topic=\"kvfleet.transfers\"}")
        .contains("kvfleet_engine_registered_bytes{backend=\"ucx\",memory_type=\"DRAM\"}")
        .contains("vertx_eventbus_");
  }

  @Test
  void everyKvfleetSeriesTheGrafanaDashboardQueriesIsServedOrDocumented() throws Exception {
    String scraped = ops.getWithout("/metrics").body();
    String documented = Files.readString(Path.of("src/main/resources/openapi/coordinator.yaml"));
    String dashboard = Files.readString(Path.of("../docker/grafana/dashboards/kvfleet.json"));
    var names = Pattern.compile("kvfleet_[a-z_]+").matcher(dashboard).results().map(MatchResult::group)
        .collect(Collectors.toCollection(TreeSet::new));
    assertThat(names).hasSizeGreaterThan(10);
    for (String name : names) {
      String base = name.replaceAll("_(bucket|count|sum)$", "");
      String family = base.replaceAll("_(total|seconds)$", "");
      assertThat(scraped.contains(name) || documented.contains(base) || documented.contains(family))
          .as(name + " is neither served now nor documented").isTrue();
    }
    assertThat(names).filteredOn(scraped::contains).as("served by the demo").contains("kvfleet_transfers_total",
        "kvfleet_transfer_phase_seconds_bucket", "kvfleet_registrations_total", "kvfleet_peers_alive");
  }

  @Test
  void peersShowRoleEpochLivenessAndWhatEachBackendCanRegister() throws Exception {
    var peers = json(ops.get("/api/v1/peers"));
    assertThat(peers).extracting(p -> p.get("nodeId").asText())
        .containsExactlyInAnyOrder("prefill-0", "decode-0", "decode-1");
    for (var p : peers) {
      assertThat(p.get("role").asText()).isEqualTo(p.get("nodeId").asText().replaceAll("-\\d+$", ""));
      assertThat(p.get("status").asText()).isEqualTo("ALIVE");
      assertThat(p.get("epoch").asLong()).isPositive();
      assertThat(p.get("lastHeartbeat").asText()).isNotEmpty();
      var ucx = find(p.get("capabilities"), "backend", "ucx");
      assertThat(ucx.get("memoryTypes")).extracting(JsonNode::asText).containsExactly("DRAM");
    }
  }

  @Test
  void regionsFilterByNodeKindMemoryTypeBackendAndStatus() throws Exception {
    var vram = json(ops.get("/api/v1/regions?node=prefill-0&memoryType=vram&kind=STATE&status=FAILED"));
    assertThat(vram).isNotEmpty().allSatisfy(r -> {
      assertThat(r.get("nodeId").asText()).isEqualTo("prefill-0");
      assertThat(r.at("/spec/memoryType").asText()).isEqualTo("VRAM");
      assertThat(r.get("failedBackends").has("ucx")).isTrue();
    });
    var kv = json(ops.get("/api/v1/regions?kind=KV&backend=ucx"));
    assertThat(kv).extracting(r -> r.get("nodeId").asText()).containsOnly("prefill-0", "decode-0", "decode-1");
  }

  @Test
  void failuresAreGroupedByReasonAndNodeWithDiagnosisAndRemediation() throws Exception {
    var failures = json(ops.get("/api/v1/registrations/failures"));
    var ucx = failures.at("/groups/NO_MEMORY_DOMAIN/prefill-0");
    assertThat(ucx).isNotEmpty();
    var first = ucx.get(0);
    assertThat(first.get("memoryType").asText()).isEqualTo("VRAM");
    assertThat(first.get("diagnosis").asText()).contains("ucx could not register STATE VRAM region state_data-");
    assertThat(first.get("remediation").asText()).isNotEmpty();
    assertThat(failures.at("/byReason/NO_MEMORY_DOMAIN").asLong()).isEqualTo(ucx.size());
    assertThat(json(ops.get("/api/v1/registrations/failures?node=decode-0")).get("groups")).isEmpty();
  }

  @Test
  void transfersByStateAndById() throws Exception {
    var completed = json(ops.get("/api/v1/transfers?state=completed&limit=2"));
    assertThat(completed).hasSize(2).allSatisfy(t -> assertThat(t.get("status").asText()).isEqualTo("COMPLETED"));
    String id = completed.get(0).at("/request/transferId").asText();
    var one = json(ops.get("/api/v1/transfers/" + id));
    assertThat(one.get("bytes").asLong()).isPositive();
    assertThat(ops.get("/api/v1/transfers/no-such-transfer").statusCode()).isEqualTo(404);
    assertThat(json(ops.get("/api/v1/transfers?state=in_flight")))
        .allSatisfy(t -> assertThat(t.get("status").asText()).isIn("REQUESTED", "DISPATCHED"));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "/api/v1/transfers?limit=many|limit must be a whole number, not 'many'",
      "/api/v1/transfers?limit=0|limit must be 1 to 10000, not 0",
      "/api/v1/transfers?state=lost|state must be one of",
      "/api/v1/regions?kind=CACHE|kind must be one of [KV, STATE, AUX], not 'CACHE'",
      "/api/v1/regions?memoryType=HBM|memoryType must be one of [DRAM, VRAM]",
      "/api/v1/events?since=yesterday|since must be an RFC 3339 time",
      "/api/v1/events?type=peer.joined|type must be one of",
      "/api/v1/events?after=-3|after must not be negative",
      "/api/v1/explain?kind=cluster&id=x|kind must be one of [node, region, transfer], not 'cluster'",
      "/api/v1/explain?kind=transfer|id is required"})
  void aBadParameterIsAnswered400WithWhatFits(String path, String message) throws Exception {
    var answer = ops.get(path);
    assertThat(answer.statusCode()).isEqualTo(400);
    assertThat(json(answer).get("error").asText()).contains(message);
  }

  @Test
  void eventsArePagedAndFilteredByNodeTypeAndTime() throws Exception {
    var first = json(ops.get("/api/v1/events?type=io.kvfleet.transfer.completed&node=prefill-0&limit=2"));
    assertThat(first.get("items")).isNotEmpty().allSatisfy(e -> {
      assertThat(e.get("type").asText()).isEqualTo("io.kvfleet.transfer.completed");
      assertThat(e.get("node").asText()).isEqualTo("prefill-0");
    });
    long next = first.get("next").asLong();
    var second = json(ops.get("/api/v1/events?limit=5&after=" + next));
    assertThat(second.get("items")).allSatisfy(e -> assertThat(e.get("index").asLong()).isGreaterThan(next));
    var later = json(ops.get("/api/v1/events?since=2999-01-01T00:00:00Z"));
    assertThat(later.get("items")).isEmpty();
  }

  @Test
  void explainsATransferAsKvfleetExplainDoesFromTheWholeLog() throws Exception {
    var done = json(ops.get("/api/v1/transfers?state=COMPLETED&limit=1")).get(0).at("/request/transferId").asText();
    var answer = json(ops.get("/api/v1/explain?kind=transfer&id=" + done));
    var target = new ExplainTarget.Transfer(done);
    var replay = new Replay(ReplayOptions.defaults().explaining(target));
    ReplayRunner.run(LogSource.Kafka.of(ops.kafka.bootstrapServers()), replay, false);
    var fromLog = replay.finish().explain(target);
    assertThat(answer.get("found").asBoolean()).isTrue();
    assertThat(answer.get("summary").asText()).isEqualTo(fromLog.summary()).contains(done).contains("completed");
    assertThat(answer.get("steps")).hasSize(fromLog.steps().size());
    var node = json(ops.get("/api/v1/explain?kind=node&id=prefill-0"));
    assertThat(node.get("found").asBoolean()).isTrue();
  }

  @Test
  void theStateHashComesWithTheOffsetsItCovers() throws Exception {
    var state = json(ops.get("/api/v1/state"));
    assertThat(state.get("hash").asText()).hasSize(64);
    assertThat(state.get("nextOffsets").has("kvfleet.transfers-0")).isTrue();
    assertThat(state.get("applied").asLong()).isPositive();
  }

  @Test
  void theEventStreamSendsEachEventAsItIsFolded() throws Exception {
    var request = HttpRequest.newBuilder(URI.create(ops.base + "/api/v1/stream?access_token=" + ops.token)).build();
    var response = ops.http().send(request, HttpResponse.BodyHandlers.ofInputStream());
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("content-type")).hasValue("text/event-stream");
    try (var lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
      String line;
      do {
        line = lines.readLine();
      } while (line != null && !line.startsWith("data: "));
      assertThat(line).isNotNull();
      var event = JSON.readTree(line.substring("data: ".length()));
      assertThat(event.get("type").asText()).startsWith("io.kvfleet.");
      assertThat(event.get("position").asText()).contains("@");
    }
  }

  @Test
  void theCoordinatorsCountersEqualAReplayOfTheSameRecords() throws Exception {
    var server = ops.fleet.ops().orElseThrow();
    var live = server.countersNow().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    List<LogRecord> all = new ArrayList<>();
    ReplayRunner.read(LogSource.Kafka.of(ops.kafka.bootstrapServers()), all::add, false);
    var replayed = new FleetMetrics(new SimpleMeterRegistry());
    var state = FleetState.keepingEnded(io.kvfleet.control.coordinator.Coordinator.DEFAULT_KEEP_ENDED);
    for (LogRecord r : live.order().arrange(all)) {
      replayed.replayed(r, state);
    }
    assertThat(live.counters()).containsKey("kvfleet_transfers{outcome=completed,reason=NONE}")
        .containsKey("kvfleet_transfer_phase{phase=end_to_end}.count");
    assertThat(Counters.of(replayed.registry())).isEqualTo(live.counters());
    assertThat(StateHash.of(state)).isEqualTo(live.hash());
  }

  private static JsonNode json(HttpResponse<String> response) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isLessThan(500);
    return JSON.readTree(response.body());
  }

  private static JsonNode find(JsonNode array, String field, String value) {
    for (var n : array) {
      if (n.get(field).asText().equals(value)) {
        return n;
      }
    }
    throw new AssertionError("no " + field + "=" + value + " in " + array);
  }
}
