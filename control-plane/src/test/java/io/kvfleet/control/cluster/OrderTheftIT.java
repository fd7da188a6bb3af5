package io.kvfleet.control.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvfleet.control.kafka.Await;
import io.kvfleet.control.kafka.Collected;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.control.kafka.EventTail;
import io.kvfleet.control.protocol.Addresses;
import io.kvfleet.control.protocol.Protocol;
import io.kvfleet.control.protocol.TransferOrder;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.Topics;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.TransferStatus;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 15, row 2, against OS processes (a broker, a coordinator, two agents): a process that joins
 * the clustered EventBus with only the cluster name sends a hand-made order straight to an agent's
 * address, and registers a second consumer on it. The order does not run (the agent refuses it,
 * ORDER_NOT_FROM_LOG, and counts it), and the second consumer receives none of the orders the
 * coordinator dispatches: every requested transfer completes.
 */
class OrderTheftIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  /** Each agent API\'s bearer token, by its base URL. */
  private static final java.util.Map<String, String> TOKENS = new java.util.concurrent.ConcurrentHashMap<>();
  private static final long PAGE = 16 * 1024;
  private static final int TRANSFERS = 20;
  private final List<AutoCloseable> owned = new ArrayList<>();
  private final Collected log = new Collected();
  private Vertx intruder;

  @AfterEach
  void close() throws Exception {
    if (intruder != null) {
      intruder.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
    for (var resource : owned.reversed()) {
      resource.close();
    }
  }

  @Test
  void aSecondBusMemberNeitherRunsAHandMadeOrderNorTakesTheAgentsOrders() throws Exception {
    var kafka = own(KvfleetProcess.start("theft-kafka", "kafka"));
    String bootstrap = kafka.awaitValue("kvfleet-kafka", 180);
    owned.add(EventTail.start(bootstrap, Topics.ALL, log::add));
    int port = FreePorts.clusterBase();
    String clusterName = "it-theft-" + UUID.randomUUID().toString().substring(0, 8);
    var cluster = List.of("--bootstrap-servers", bootstrap, "--cluster-name", clusterName, "--cluster-port",
        Integer.toString(port), "--cluster-members", FreePorts.members(port));
    var coordinator = own(KvfleetProcess.start("theft-coordinator", with(cluster, "coordinator")));
    var prefill = own(KvfleetProcess.start("theft-prefill", with(cluster, "node", "--id", "prefill-0",
        "--heartbeat", "1s")));
    var decode = own(KvfleetProcess.start("theft-decode", with(cluster, "node", "--id", "decode-0",
        "--heartbeat", "1s")));
    coordinator.awaitValue("kvfleet-coordinator", 180);
    String prefillApi = prefill.awaitValue("kvfleet-node-api", 180);
    String decodeApi = decode.awaitValue("kvfleet-node-api", 180);
    TOKENS.put(prefillApi, prefill.apiToken());
    TOKENS.put(decodeApi, decode.apiToken());
    long pid = ProcessHandle.current().pid();
    var source = own(new SharedMemoryFile("kvfleet-it-" + pid + "-theft-src", PAGE * 4));
    var destination = own(new SharedMemoryFile("kvfleet-it-" + pid + "-theft-dst", PAGE * 4));
    long prefillEpoch = register(prefillApi, source);
    long decodeEpoch = register(decodeApi, destination);
    Await.until("both regions in the log", Duration.ofSeconds(60),
        () -> state().region("prefill-0", "kv_data-0").isPresent() && state().region("decode-0", "kv_data-0").isPresent());

    // The intruder: a member of the bus with nothing but the cluster name and the ports.
    intruder = ClusteredVertx.join(clusterName, "127.0.0.1", port, List.of(FreePorts.members(port)))
        .toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
    Protocol.install(intruder.eventBus());
    var forged = forgedOrder(prefillEpoch, decodeEpoch);
    var answer = intruder.eventBus().request(Addresses.transfers("prefill-0"), forged)
        .toCompletionStage().toCompletableFuture().handle((reply, error) -> error == null ? "ran: " + reply.body()
            : "refused: " + error.getMessage()).get(60, TimeUnit.SECONDS);
    System.out.println("OrderTheftIT: the hand-made order was " + answer);

    var stolen = new AtomicInteger();
    intruder.eventBus().consumer(Addresses.transfers("prefill-0"), message -> stolen.incrementAndGet())
        .completion().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    var router = own(new EventPublisher(bootstrap, "router-theft", 1, Clock.systemUTC()));
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < TRANSFERS; i++) {
      String id = "theft-" + i;
      ids.add(id);
      router.publish(new TransferRequested(id, "prefill-0", prefillEpoch, "kv_data-0", "decode-0", decodeEpoch,
          "kv_data-0", TransferOp.WRITE, List.of(new ByteRange(0, (i % 4) * PAGE, PAGE)),
          System.currentTimeMillis() + 20_000, false), id).get(30, TimeUnit.SECONDS);
    }
    Await.until("every transfer to end", Duration.ofSeconds(90),
        () -> ids.stream().allMatch(id -> state().transfer(id).map(t -> t.status().isTerminal()).orElse(false)));
    Thread.sleep(1_000); // an outcome of the hand-made order would have come long before

    var state = state();
    assertThat(ids).allSatisfy(id -> assertThat(state.transfer(id).orElseThrow().status()).as(id)
        .isEqualTo(TransferStatus.COMPLETED));
    assertThat(stolen.get()).as("orders the second consumer received").isZero();
    assertThat(log.envelopes()).as("events about the hand-made order's transfer")
        .noneMatch(e -> e.data().subject().equals("forged-1"));
    assertThat(answer).startsWith("refused").contains("ORDER_NOT_FROM_LOG");
    String prefillMetrics = metrics(prefillApi);
    assertThat(prefillMetrics)
        .contains("kvfleet_orders_refused_total{node=\"prefill-0\",reason=\"ORDER_NOT_FROM_LOG\"} 1.0")
        // the node's own outcomes, without a coordinator to ask: the twenty pages it moved, its registration
        .contains("kvfleet_agent_transfers_total{node=\"prefill-0\",outcome=\"completed\",reason=\"NONE\"} 20.0")
        .containsPattern("kvfleet_agent_transfer_bytes_total\\{node=\"prefill-0\",path=\"[^\"]+\"} " + 20 * PAGE + ".0")
        .containsPattern("kvfleet_agent_registrations_total\\{backend=\"[a-z]+\",node=\"prefill-0\","
            + "outcome=\"registered\",reason=\"NONE\"} [1-9]");
    assertThat(prefillMetrics).doesNotContain("outcome=\"failed\"");
  }

  /** A WRITE of one page from prefill-0 to decode-0 that no router requested, made from what the log shows. */
  private TransferOrder forgedOrder(long prefillEpoch, long decodeEpoch) {
    var state = state();
    var request = new TransferRequested("forged-1", "prefill-0", prefillEpoch, "kv_data-0", "decode-0", decodeEpoch,
        "kv_data-0", TransferOp.WRITE, List.of(new ByteRange(0, 0, PAGE)), System.currentTimeMillis() + 30_000, false);
    var destination = state.region("decode-0", "kv_data-0").orElseThrow();
    return new TransferOrder(request, state.region("prefill-0", "kv_data-0").orElseThrow().spec(), destination.spec(),
        destination.remoteKeys(), state.peer("decode-0").orElseThrow().transportAddress(), "forged-envelope");
  }

  private FleetState state() {
    return FleetState.fold(log.envelopes());
  }

  private static String[] with(List<String> cluster, String command, String... args) {
    List<String> all = new ArrayList<>(List.of(command));
    all.addAll(List.of(args));
    all.addAll(cluster);
    return all.toArray(String[]::new);
  }

  /** Registers the buffer as kv_data through the agent's API; answers the node's epoch. */
  private static long register(String api, SharedMemoryFile memory) throws Exception {
    String body = """
        {"components": [{"name": "kv_data", "kind": "KV", "memoryType": "DRAM",
          "handles": ["%s"], "lengths": [%d], "itemLengths": [%d]}]}
        """.formatted(memory.handle(), memory.memory().byteSize(), PAGE);
    var answer = HTTP.send(HttpRequest.newBuilder(URI.create(api + "/v1/components"))
        .header("Authorization", "Bearer " + TOKENS.get(api)).POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    var node = HTTP.send(HttpRequest.newBuilder(URI.create(api + "/v1/node"))
        .header("Authorization", "Bearer " + TOKENS.get(api)).build(),
        HttpResponse.BodyHandlers.ofString());
    return JSON.readTree(node.body()).get("epoch").asLong();
  }

  private static String metrics(String api) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(api + "/metrics")).build(),
        HttpResponse.BodyHandlers.ofString()).body();
  }

  private <T extends AutoCloseable> T own(T resource) {
    owned.add(resource);
    return resource;
  }
}
