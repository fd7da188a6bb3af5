package io.kvfleet.control.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvfleet.control.kafka.Await;
import io.kvfleet.control.kafka.Collected;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.control.kafka.EventTail;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.Topics;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.TransferStatus;
import io.kvfleet.events.state.TransferView;
import java.lang.foreign.ValueLayout;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The fleet as separate OS processes on loopback: a broker, a coordinator and two node agents
 * sharing a clustered EventBus of their own (a cluster name and ports no other fleet on this
 * machine uses). Buffers are registered through the agents' local API, transfers are requested
 * through Kafka, bytes are checked at the destination, and a SIGKILLed agent's in-flight transfers
 * end with PEER_LOST within its lease. Each subclass runs it in one configuration of the engine.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class FleetProcessesContract {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long PAGE = 16 * 1024;
  private static final int PAGES = 512;
  /** Far above the second or so the transfer takes, so a loaded machine cannot make it time out. */
  private static final Duration TRANSFER_DEADLINE = Duration.ofMinutes(5);
  /**
   * The agents' heartbeat; the lease is three. 500 ms (a 1.5 s lease) let a machine loaded by other
   * fleets declare a live agent lost before the first transfer.
   */
  private static final String HEARTBEAT = "1s";
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  /** Each agent's API token, by its API's URL (read from the file each agent printed). */
  private static final Map<String, String> TOKENS = new java.util.concurrent.ConcurrentHashMap<>();
  private final List<AutoCloseable> owned = new ArrayList<>();
  private final Collected log = new Collected();
  private KvfleetProcess prefill;
  private String bootstrap;
  private long prefillEpoch;
  private long decodeEpoch;
  private SharedMemoryFile source;
  private SharedMemoryFile destination;
  private EventPublisher router;
  private JsonNode prefillCapabilities;

  /** The environment of the fleet's processes (added to this JVM's). */
  abstract Map<String, String> environment();

  /** Checks the data path a transfer took against what the source node's capabilities say. */
  abstract void checkDataPath(String path, JsonNode capabilities);

  @BeforeAll
  void startFleet() throws Exception {
    String name = getClass().getSimpleName();
    var env = environment();
    var kafka = own(KvfleetProcess.start(name + "-kafka", env, "kafka"));
    bootstrap = kafka.awaitValue("kvfleet-kafka", 180);
    owned.add(EventTail.start(bootstrap, Topics.ALL, log::add));
    int port = FreePorts.clusterBase();
    List<String> cluster = List.of("--bootstrap-servers", bootstrap, "--cluster-name",
        "it-" + name + "-" + UUID.randomUUID().toString().substring(0, 8), "--cluster-port", Integer.toString(port),
        "--cluster-members", FreePorts.members(port));
    var coordinator = own(KvfleetProcess.start(name + "-coordinator", env, with(cluster, "coordinator")));
    prefill = own(KvfleetProcess.start(name + "-prefill", env, with(cluster, "node", "--id", "prefill-0",
        "--heartbeat", HEARTBEAT)));
    var decode = own(KvfleetProcess.start(name + "-decode", env, with(cluster, "node", "--id", "decode-0",
        "--heartbeat", HEARTBEAT)));
    coordinator.awaitValue("kvfleet-coordinator", 180);
    String prefillApi = prefill.awaitValue("kvfleet-node-api", 180);
    String decodeApi = decode.awaitValue("kvfleet-node-api", 180);
    TOKENS.put(prefillApi, java.nio.file.Files.readString(Path.of(prefill.awaitValue("kvfleet-node-api-token-file", 5))).strip());
    TOKENS.put(decodeApi, java.nio.file.Files.readString(Path.of(decode.awaitValue("kvfleet-node-api-token-file", 5))).strip());
    long pid = ProcessHandle.current().pid();
    source = own(new SharedMemoryFile("kvfleet-it-" + pid + "-" + name + "-src", PAGE * PAGES));
    destination = own(new SharedMemoryFile("kvfleet-it-" + pid + "-" + name + "-dst", PAGE * PAGES));
    for (long i = 0; i < source.memory().byteSize(); i += 8) {
      source.memory().set(ValueLayout.JAVA_LONG_UNALIGNED, i, i * 0x9E3779B97F4A7C15L);
    }
    prefillEpoch = register(prefillApi, source);
    decodeEpoch = register(decodeApi, destination);
    prefillCapabilities = node(prefillApi).get("capabilities");
    router = own(new EventPublisher(bootstrap, "router-it", 1, Clock.systemUTC()));
  }

  @AfterAll
  void stopFleet() throws Exception {
    for (var resource : owned.reversed()) {
      resource.close();
    }
  }

  private static String[] with(List<String> cluster, String command, String... args) {
    List<String> all = new ArrayList<>(List.of(command));
    all.addAll(List.of(args));
    all.addAll(cluster);
    return all.toArray(String[]::new);
  }

  @Test
  @Order(1)
  void movesKvPagesBetweenProcessesAndTheDestinationBytesMatch() throws Exception {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < PAGES; i++) {
      order.add(i);
    }
    Collections.shuffle(order, new Random(7));
    List<ByteRange> ranges = new ArrayList<>();
    for (int i = 0; i < PAGES; i++) {
      ranges.add(new ByteRange(i * PAGE, order.get(i) * PAGE, PAGE));
    }
    long start = System.nanoTime();
    request("t-bytes", ranges);
    Await.until("t-bytes to end", TRANSFER_DEADLINE.plusMinutes(1), () -> ended("t-bytes"));
    System.out.printf("%s: t-bytes (%d pages) ended %d ms after its request%n", getClass().getSimpleName(), PAGES,
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    var view = state().transfer("t-bytes").orElseThrow();
    assertThat(view.status()).as(view.toString()).isEqualTo(TransferStatus.COMPLETED);
    assertThat(view.bytes()).isEqualTo(PAGE * PAGES);
    for (int i = 0; i < PAGES; i++) {
      var expected = source.memory().asSlice(i * PAGE, PAGE);
      var actual = destination.memory().asSlice(order.get(i) * PAGE, PAGE);
      assertThat(actual.mismatch(expected)).as("page " + i).isEqualTo(-1);
    }
    var crc = new CRC32C();
    ranges.forEach(r -> crc.update(source.memory().asSlice(r.sourceOffset(), r.length()).asByteBuffer()));
    var completed = (TransferCompleted) log.envelopes().stream().map(e -> e.data())
        .filter(e -> e instanceof TransferCompleted c && c.transferId().equals("t-bytes")).findFirst().orElseThrow();
    assertThat(completed.checksum()).isEqualTo(HexFormat.of().toHexDigits((int) crc.getValue()));
    System.out.printf("%s: t-bytes went %s%n", getClass().getSimpleName(), completed.path());
    checkDataPath(completed.path(), prefillCapabilities);
  }

  @Test
  @Order(2)
  void aKilledAgentsInFlightTransfersEndWithPeerLostWithinItsLease() throws Exception {
    List<String> ids = new ArrayList<>();
    long killedAt = 0;
    for (int i = 0; i < 40; i++) {
      if (i == 10) {
        prefill.kill();
        killedAt = System.currentTimeMillis();
      }
      ids.add("t-stream-" + i);
      request("t-stream-" + i, List.of(new ByteRange(0, 0, PAGE)));
      Thread.sleep(100);
    }
    Await.until("every streamed transfer to end", TRANSFER_DEADLINE.plusMinutes(1), () -> ids.stream().allMatch(this::ended));
    var lost = log.envelopes().stream().filter(e -> e.data() instanceof PeerLost p && p.nodeId().equals("prefill-0"))
        .findFirst().orElseThrow();
    assertThat(lost.time().toEpochMilli() - killedAt).as("ms from SIGKILL to PeerLost").isLessThan(15_000);
    var state = state();
    List<TransferView> views = ids.stream().map(id -> state.transfer(id).orElseThrow()).toList();
    assertThat(views).filteredOn(v -> v.reason().equals(ReasonCodes.PEER_LOST)).as("in flight at the kill").isNotEmpty();
    assertThat(views).allSatisfy(v -> assertThat(v.status().isTerminal()).isTrue());
    for (String id : ids) {
      long terminals = log.envelopes().stream().map(e -> e.data())
          .filter(e -> e.subject().equals(id) && isTerminal(e)).count();
      assertThat(terminals).as("terminal events of " + id).isEqualTo(1);
    }
  }

  private static boolean isTerminal(io.kvfleet.events.FleetEvent e) {
    return e instanceof TransferCompleted || e instanceof io.kvfleet.events.TransferFailed
        || e instanceof io.kvfleet.events.TransferRejected || e instanceof io.kvfleet.events.TransferTimedOut;
  }

  private boolean ended(String id) {
    return state().transfer(id).map(t -> t.status().isTerminal()).orElse(false);
  }

  private FleetState state() {
    return FleetState.fold(log.envelopes());
  }

  private void request(String id, List<ByteRange> ranges) throws Exception {
    router.publish(new TransferRequested(id, "prefill-0", prefillEpoch, "kv_data-0", "decode-0", decodeEpoch,
        "kv_data-0", TransferOp.WRITE, ranges, System.currentTimeMillis() + TRANSFER_DEADLINE.toMillis(), true), id).get();
  }

  /** Registers the shared-memory buffer as kv_data through the agent's API; answers the node's epoch. */
  private static long register(String api, SharedMemoryFile memory) throws Exception {
    String body = """
        {"components": [{"name": "kv_data", "kind": "KV", "memoryType": "DRAM",
          "handles": ["%s"], "lengths": [%d], "itemLengths": [%d]}]}
        """.formatted(memory.handle(), memory.memory().byteSize(), PAGE);
    var answer = HTTP.send(HttpRequest.newBuilder(URI.create(api + "/v1/components"))
        .header("Authorization", "Bearer " + TOKENS.get(api))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    assertThat(answer.body()).contains("io.kvfleet.region.registered");
    return node(api).get("epoch").asLong();
  }

  private static JsonNode node(String api) throws Exception {
    var node = HTTP.send(HttpRequest.newBuilder(URI.create(api + "/v1/node"))
        .header("Authorization", "Bearer " + TOKENS.get(api)).build(), HttpResponse.BodyHandlers.ofString());
    return JSON.readTree(node.body());
  }

  private <T extends AutoCloseable> T own(T resource) {
    owned.add(resource);
    return resource;
  }
}
