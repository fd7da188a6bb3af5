package io.kvfleet.control.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvfleet.control.coordinator.FleetAccess;
import io.kvfleet.events.LayoutComponent;
import io.kvfleet.events.ModelLayoutDeclared;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code POST /v1/layout} on a real broker: sglang's and vLLM's shapes become a registered, declared layout. */
class LayoutApiIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();
  private final FleetAccess fleet = new FleetAccess();

  @AfterEach
  void close() throws Exception {
    fleet.close();
  }

  @Test
  void registersSglangShapedBuffersAndDeclaresTheLayoutAfterThem() throws Exception {
    int port = fleet.agentWithApi("prefill-0");
    long k0 = fleet.allocate(8192), k1 = fleet.allocate(8192), conv = fleet.allocate(2048), ssm = fleet.allocate(4096);
    long aux = fleet.allocate(1024);
    var answer = post(port, """
        {"modelId": "qwen3-next", "tpRank": 0, "tpSize": 1, "memoryType": "DRAM", "page_size": 16,
         "kv_dtype": "bfloat16", "kv_data_ptrs": [%d, %d], "kv_data_lens": [8192, 8192], "kv_item_lens": [1024, 1024],
         "kv_layers": [3, 3],
         "state": [
           {"name": "conv", "dtype": "bfloat16", "state_data_ptrs": [%d], "state_data_lens": [2048],
            "state_item_lens": [256], "layers": [0]},
           {"name": "ssm", "dtype": "float32", "state_data_ptrs": [%d], "state_data_lens": [4096],
            "state_item_lens": [512], "layers": [0]}],
         "aux_data_ptrs": [%d], "aux_data_lens": [1024], "aux_item_lens": [128]}
        """.formatted(k0, k1, conv, ssm, aux));

    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    JsonNode events = JSON.readTree(answer.body()).get("events");
    assertThat(events.get(events.size() - 1).get("type").asText()).isEqualTo("io.kvfleet.model.layout_declared");
    assertThat(events).filteredOn(e -> e.get("type").asText().equals("io.kvfleet.region.registered")).isNotEmpty();
    fleet.awaitEvents("the layout in Kafka", e -> e instanceof ModelLayoutDeclared l && l.components().equals(List.of(
        new LayoutComponent("kv", io.kvfleet.events.RegionKind.KV, io.kvfleet.events.MemoryType.DRAM, 2, 1024, 16,
            "bfloat16", List.of(3, 3), List.of("kv-0", "kv-1")),
        new LayoutComponent("conv", io.kvfleet.events.RegionKind.STATE, io.kvfleet.events.MemoryType.DRAM, 1, 256, 1,
            "bfloat16", List.of(0), List.of("conv-0")),
        new LayoutComponent("ssm", io.kvfleet.events.RegionKind.STATE, io.kvfleet.events.MemoryType.DRAM, 1, 512, 1,
            "float32", List.of(0), List.of("ssm-0")),
        new LayoutComponent("aux", io.kvfleet.events.RegionKind.AUX, io.kvfleet.events.MemoryType.DRAM, 1, 128, 1,
            "", List.of(0), List.of("aux-0")))));
  }

  @Test
  void takesVllmsPerLayerKvCaches() throws Exception {
    int port = fleet.agentWithApi("decode-0");
    long l0 = fleet.allocate(4096), l1 = fleet.allocate(4096);
    var answer = post(port, """
        {"modelId": "m", "memoryType": "DRAM", "page_size": 16, "kv_caches": [
          {"layer_name": "model.layers.0.self_attn.attn", "layer": 0, "data_ptr": %d, "len": 4096, "block_len": 512},
          {"layer_name": "model.layers.1.self_attn.attn", "layer": 1, "data_ptr": %d, "len": 4096, "block_len": 512}]}
        """.formatted(l0, l1));

    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    fleet.awaitEvents("the layout in Kafka", e -> e instanceof ModelLayoutDeclared l
        && l.component("kv").map(c -> c.buffers() == 2 && c.itemLength() == 512 && c.layers().equals(List.of(0, 1)))
            .orElse(false));
  }

  @Test
  void refusesALayoutWhoseBuffersAreCutDifferentlyOrLackTheirItemLengths() throws Exception {
    int port = fleet.agentWithApi("prefill-0");
    var uneven = post(port, """
        {"modelId": "m", "memoryType": "DRAM", "kv_data_ptrs": [4096, 8192], "kv_data_lens": [4096, 4096],
         "kv_item_lens": [512, 1024]}
        """);
    var unsized = post(port, """
        {"modelId": "m", "memoryType": "DRAM", "kv_data_ptrs": [4096], "kv_data_lens": [4096]}
        """);

    assertThat(uneven.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(uneven.body()).get("error").asText())
        .isEqualTo("bad layout: kv: item lengths differ between buffers [512, 1024]; a component is cut alike in every buffer");
    assertThat(unsized.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(unsized.body()).get("error").asText()).isEqualTo("bad layout: kv_item_lens must be given");
  }

  /**
   * A layout of 2,400 components at the longest names allowed is a 2 MB event, over Kafka's record limit: it was
   * registered, said, refused by the producer, and said again at every join, so the agent joined again for ever
   * at a new epoch, each time writing its 9,600 registration outcomes again. It is refused before anything.
   */
  @Test
  void refusesALayoutNoKafkaRecordCanHoldBeforeRegisteringAnything() throws Exception {
    int port = fleet.agentWithApi("prefill-0");
    long epoch = fleet.epochOf("prefill-0");
    long buffer = fleet.allocate(4096);
    String longest = "x".repeat(Component.LONGEST_NAME - 6);
    var states = new StringBuilder();
    for (int i = 0; i < 2_400; i++) {
      states.append(i == 0 ? "" : ",").append("""
          {"name": "%s%06d", "dtype": "%s", "memoryType": "DRAM", "state_data_ptrs": [%d],
           "state_data_lens": [4096], "state_item_lens": [4096]}""".formatted(longest, i, longest, buffer));
    }
    var answer = post(port, """
        {"modelId": "%s", "memoryType": "DRAM", "kv_data_ptrs": [%d], "kv_data_lens": [4096], "kv_item_lens": [4096],
         "state": [%s]}""".formatted(longest, buffer, states));

    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(413);
    assertThat(JSON.readTree(answer.body()).get("error").asText())
        .contains("prefill-0", "model.layout_declared for prefill-0", "over the 1047552 a Kafka record may hold");
    Thread.sleep(3_000); // three heartbeats: a fence and a rejoin would have come by now
    assertThat(fleet.epochOf("prefill-0")).as("the agent's epoch").isEqualTo(epoch);
    assertThat(fleet.events()).noneMatch(e -> e instanceof ModelLayoutDeclared
        || e instanceof io.kvfleet.events.RegionRegistered r && r.region().regionId().startsWith(longest));
    var small = post(port, """
        {"modelId": "m", "memoryType": "DRAM", "kv_data_ptrs": [%d], "kv_data_lens": [4096], "kv_item_lens": [1024]}
        """.formatted(buffer));
    assertThat(small.statusCode()).as(small.body()).isEqualTo(200);
  }

  /** A call whose outcomes no empty buffer holds was answered 503, "Kafka away", and retried for ever. */
  @Test
  void refusesACallLargerThanTheEventBufferAsTheCallersMistake() throws Exception {
    int port = fleet.agentWithApi("prefill-0");
    String zeros = String.join(",", java.util.Collections.nCopies(2_501, "0"));
    var answer = post(port, """
        {"modelId": "m", "memoryType": "DRAM", "kv_data_ptrs": [%s], "kv_data_lens": [%s], "kv_item_lens": [%s]}
        """.formatted(zeros, zeros, zeros));

    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(400);
    assertThat(JSON.readTree(answer.body()).get("error").asText()).contains("this call may make 10005 outcome events"
        + " (up to four per entry), more than the agent's event buffer holds (10000): register the entries in smaller"
        + " calls");
  }

  private HttpResponse<String> post(int port, String body) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/layout"))
        .header("Authorization", "Bearer " + fleet.apiTokenAt(port))
        .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
