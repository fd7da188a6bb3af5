package io.kvfleet.control.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvfleet.control.coordinator.FleetAccess;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionDeregistered;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSkipped;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The agent's local HTTP API on a real broker: answers after Kafka has the outcomes. */
class AgentApiIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();
  private final FleetAccess fleet = new FleetAccess();

  @AfterEach
  void close() throws Exception {
    fleet.close();
  }

  @Test
  void registersAComponentAndAnswersOnceItsEventsAreInKafka() throws Exception {
    int port = fleet.agentWithApi("prefill-0");
    long address = fleet.allocate(64 * 1024);
    var answer = post(port, "/v1/components", """
        {"components": [{"name": "state_data", "kind": "STATE", "memoryType": "DRAM",
          "addresses": [%d, 0], "lengths": [65536, 0], "itemLengths": [4096, 4096]}]}
        """.formatted(address));
    assertThat(answer.statusCode()).isEqualTo(200);
    JsonNode body = JSON.readTree(answer.body());
    assertThat(body.get("durable").asBoolean()).isTrue();
    assertThat(body.get("events")).extracting(e -> e.get("type").asText())
        .containsExactly("io.kvfleet.region.registered", "io.kvfleet.region.skipped");
    fleet.awaitEvents("the outcomes in Kafka", e -> e instanceof RegionRegistered r
        && r.region().regionId().equals("state_data-0"));
    fleet.awaitEvents("the skip in Kafka", e -> e instanceof RegionSkipped s && s.region().index() == 1);
  }

  @Test
  void anAnswerWhereEveryEntryRegisteredOrWasSkippedIsRegisteredWithTheSkipsReasons() throws Exception {
    int port = fleet.agentOnEngineWithApi("prefill-0");
    long address = fleet.allocate(64 * 1024);
    var answer = post(port, "/v1/components", """
        {"components": [{"name": "kv", "kind": "KV", "memoryType": "DRAM",
          "addresses": [%d, 0, %d, null], "lengths": [65536, 4096, 0, 4096]}]}
        """.formatted(address, address));

    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    JsonNode body = JSON.readTree(answer.body());
    assertThat(body.get("outcome").asText()).isEqualTo("registered");
    assertCounts(body, 1, 3, 0);
    JsonNode entries = body.get("entries");
    assertThat(entries).extracting(e -> e.get("component").asText() + "-" + e.get("index").asInt() + " "
            + e.get("outcome").asText() + " " + e.get("reason").asText())
        .containsExactly("kv-0 registered null", "kv-1 skipped NULL_ADDRESS", "kv-2 skipped ZERO_LENGTH",
            "kv-3 skipped NULL_ADDRESS");
    // the engine's own memory: UCX's allocation where UCX is loaded (host grants only memory it allocated)
    assertThat(entries.get(0).get("backends")).extracting(JsonNode::asText).containsAnyOf("ucx", "host");
    assertThat(entries.get(2).get("diagnosis").get("remediation").asText()).contains("length");
    assertThat(body.get("durable").asBoolean()).isTrue();
    fleet.awaitEvents("the zero-length skip in Kafka", e -> e instanceof RegionSkipped s
        && s.region().regionId().equals("kv-2") && s.reason().equals(ReasonCodes.ZERO_LENGTH));
    fleet.awaitEvents("the null skip in Kafka", e -> e instanceof RegionSkipped s
        && s.region().regionId().equals("kv-1") && s.reason().equals(ReasonCodes.NULL_ADDRESS));
  }

  @Test
  void anAnswerWhereSomeEntriesFailedIsPartialWithEachFailuresDiagnosis() throws Exception {
    int port = fleet.agentOnEngineWithApi("prefill-0");
    long address = fleet.allocate(64 * 1024);
    var answer = post(port, "/v1/components", """
        {"components": [{"name": "kv", "kind": "KV", "memoryType": "DRAM", "addresses": [%d], "lengths": [65536]},
          {"name": "aux", "kind": "AUX", "memoryType": "DRAM", "handles": [null, "%s"], "lengths": [4096, 4096]}]}
        """.formatted(address, MISSING_SHM));

    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(207);
    JsonNode body = JSON.readTree(answer.body());
    assertThat(body.get("outcome").asText()).isEqualTo("partial");
    assertCounts(body, 1, 1, 1);
    JsonNode failed = body.get("entries").get(2);
    assertThat(failed.get("regionId").asText()).isEqualTo("aux-1");
    assertThat(failed.get("outcome").asText()).isEqualTo("failed");
    assertMissingShm(failed);
    assertThat(body.get("entries").get(1).get("reason").asText()).as("a null handle").isEqualTo("NULL_ADDRESS");
    assertThat(body.get("events")).extracting(e -> e.get("type").asText()).contains("io.kvfleet.region.registration_failed");
  }

  @Test
  void anAnswerWhereNoEntryRegisteredIsFailed() throws Exception {
    int port = fleet.agentOnEngineWithApi("prefill-0");
    var answer = post(port, "/v1/components", """
        {"components": [{"name": "aux", "kind": "AUX", "memoryType": "DRAM", "handles": ["%s"], "lengths": [4096]}]}
        """.formatted(MISSING_SHM));

    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(422);
    JsonNode body = JSON.readTree(answer.body());
    assertThat(body.get("outcome").asText()).isEqualTo("failed");
    assertCounts(body, 0, 0, 1);
    assertMissingShm(body.get("entries").get(0));
    assertThat(body.get("durable").asBoolean()).as("the failure is on record too").isTrue();
  }

  private static final String MISSING_SHM = "shm:/kvfleet-it-no-such-object-" + ProcessHandle.current().pid();

  private static void assertCounts(JsonNode body, int registered, int skipped, int failed) {
    JsonNode counts = body.get("counts");
    assertThat(List.of(counts.get("registered").asInt(), counts.get("skipped").asInt(), counts.get("failed").asInt()))
        .as(counts.toString()).containsExactly(registered, skipped, failed);
  }

  private static void assertMissingShm(JsonNode entry) {
    assertThat(entry.get("component").asText()).isEqualTo("aux");
    assertThat(entry.get("reason").asText()).isEqualTo("INVALID_ADDRESS");
    JsonNode diagnosis = entry.get("diagnosis");
    assertThat(diagnosis.get("nativeCode").asLong()).as(diagnosis.toString()).isEqualTo(2);
    assertThat(diagnosis.get("nativeMessage").asText()).isEqualTo("No such file or directory");
    assertThat(diagnosis.get("remediation").asText()).contains("shared-memory name");
    assertThat(entry.get("refusals")).isNotEmpty();
  }

  @Test
  void describesTheNodeItServesAndWhetherItIsDraining() throws Exception {
    int port = fleet.agentWithApi("prefill-0");
    var answer = get(port, "/v1/node", "Bearer " + fleet.apiTokenAt(port));
    assertThat(answer.statusCode()).isEqualTo(200);
    JsonNode body = JSON.readTree(answer.body());
    assertThat(body.get("nodeId").asText()).isEqualTo("prefill-0");
    assertThat(body.get("draining").isBoolean()).isTrue();
    assertThat(body.get("draining").asBoolean()).isFalse();
    assertThat(body.get("capabilities")).isNotEmpty();
  }

  @Test
  void deregistersARegionAndSaysWhenItDoesNotExist() throws Exception {
    int port = fleet.agentWithApi("prefill-0");
    assertThat(delete(port, "/v1/regions/kv_data-0").statusCode()).isEqualTo(200);
    fleet.awaitEvents("the release in Kafka", e -> e instanceof RegionDeregistered d && d.regionId().equals("kv_data-0"));
    var missing = delete(port, "/v1/regions/kv_data-0");
    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(missing.body()).contains("no region kv_data-0 on prefill-0");
  }

  @Test
  void rejectsAMalformedRequestWithItsReason() throws Exception {
    int port = fleet.agentWithApi("prefill-0");
    var answer = post(port, "/v1/components", """
        {"components": [{"name": "kv", "kind": "KV", "memoryType": "DRAM", "addresses": [1, 2], "lengths": [4096]}]}
        """);
    assertThat(answer.statusCode()).isEqualTo(400);
    assertThat(answer.body()).contains("2 addresses but 1 lengths");
    assertThat(post(port, "/v1/components", "{not json").statusCode()).isEqualTo(400);
  }

  @Test
  void answersPendingWhileKafkaIsDownAndDeliversLater() throws Exception {
    int port = fleet.agentWithApi("prefill-0");
    long address = fleet.allocate(4096);
    fleet.stopBroker();
    var answer = post(port, "/v1/components", """
        {"components": [{"name": "aux_data", "kind": "AUX", "memoryType": "DRAM", "addresses": [%d], "lengths": [4096]}]}
        """.formatted(address));
    assertThat(answer.statusCode()).isEqualTo(202);
    assertThat(JSON.readTree(answer.body()).get("durable").asBoolean()).isFalse();
    assertThat(JSON.readTree(answer.body()).get("outcome").asText()).isEqualTo("registered");
    fleet.restartBroker();
    fleet.awaitEvents("the pending outcome once Kafka is back", e -> e instanceof RegionRegistered r
        && r.region().regionId().equals("aux_data-0"));
  }

  @Test
  void refusesEveryV1CallWithoutItsTokenWithAJsonError() throws Exception {
    int port = fleet.agentWithApi("prefill-0");
    for (var request : List.of(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/node")).GET(),
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/components"))
            .POST(HttpRequest.BodyPublishers.ofString("{\"components\": []}")),
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/layout"))
            .POST(HttpRequest.BodyPublishers.ofString("{}")),
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/regions/kv_data-0")).DELETE())) {
      var answer = http.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(answer.statusCode()).as(answer.request().uri().toString()).isEqualTo(401);
      assertThat(answer.headers().firstValue("www-authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
      assertThat(JSON.readTree(answer.body()).get("error").asText()).contains("Authorization: Bearer");
    }
    assertThat(get(port, "/v1/node", "Bearer not-" + fleet.apiTokenAt(port)).statusCode()).isEqualTo(401);
    assertThat(get(port, "/v1/node", "Basic " + fleet.apiTokenAt(port)).statusCode()).isEqualTo(401);
    // The region is still there: the refused DELETE released nothing.
    assertThat(delete(port, "/v1/regions/kv_data-0").statusCode()).isEqualTo(200);
  }

  @Test
  void answersHealthWithoutAToken() throws Exception {
    int port = fleet.agentWithApi("prefill-0");
    var health = get(port, "/health", null);
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(health.body()).get("status").asText()).isEqualTo("up");
  }

  private HttpResponse<String> get(int port, String path, String authorization) throws Exception {
    var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(30));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return http.send(request.GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(int port, String path, String body) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .header("Authorization", "Bearer " + fleet.apiTokenAt(port))
        .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> delete(int port, String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .header("Authorization", "Bearer " + fleet.apiTokenAt(port))
        .timeout(Duration.ofSeconds(30)).DELETE().build(), HttpResponse.BodyHandlers.ofString());
  }
}
