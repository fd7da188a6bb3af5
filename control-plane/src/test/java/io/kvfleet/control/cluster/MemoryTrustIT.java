package io.kvfleet.control.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvfleet.control.kafka.Await;
import io.kvfleet.control.kafka.Collected;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.control.kafka.EventTail;
import io.kvfleet.control.kafka.RawRecords;
import io.kvfleet.engine.RemoteKey;
import io.kvfleet.engine.WorkerAddress;
import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.Topics;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.codec.EventCodec;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.TransferStatus;
import io.kvfleet.events.state.TransferView;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Issue 15, rows 1 and 6, against real processes: a broker, a coordinator and two agents (the host
 * backend only), an unrelated C process holding a secret, and an outside Kafka producer. Forged
 * {@code PeerJoined}/{@code RegionRegistered} records that name the victim (its pid and address in
 * the old key form, or a grant name of a real agent pointing at it) make prefill-0 read and write
 * nothing: each transfer fails with a reason, the victim's bytes unread and unchanged. An agent
 * asked over its API to register its own Java heap, or an unmapped address, refuses, and a WRITE
 * aimed at it afterwards leaves the agent alive.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MemoryTrustIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  /** Each agent API's bearer token, by its base URL. */
  private static final Map<String, String> TOKENS = new java.util.concurrent.ConcurrentHashMap<>();
  private static final long PAGE = 4096;
  private static final long SECRET = 65536;
  private final List<AutoCloseable> owned = new ArrayList<>();
  private final Collected log = new Collected();
  private final AtomicLong sequence = new AtomicLong();
  private final ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor();
  private String bootstrap;
  private KvfleetProcess decode;
  private String prefillApi;
  private String decodeApi;
  private long prefillEpoch;
  private long decodeEpoch;
  private SharedMemoryFile prefillKv;
  private Process victim;
  private BufferedReader victimOut;
  private long victimPid;
  private long victimAddress;
  private RawRecords outsider;
  private EventPublisher router;

  @BeforeAll
  void startFleetAndVictim() throws Exception {
    startVictim();
    var env = Map.of("KVFLEET_UCX", "off");
    var kafka = own(KvfleetProcess.start("memtrust-kafka", env, "kafka"));
    bootstrap = kafka.awaitValue("kvfleet-kafka", 180);
    owned.add(EventTail.start(bootstrap, Topics.ALL, log::add));
    int port = FreePorts.clusterBase();
    List<String> cluster = List.of("--bootstrap-servers", bootstrap, "--cluster-name",
        "it-memtrust-" + UUID.randomUUID().toString().substring(0, 8), "--cluster-port", Integer.toString(port),
        "--cluster-members", FreePorts.members(port));
    var coordinator = own(KvfleetProcess.start("memtrust-coordinator", env, with(cluster, "coordinator")));
    var prefill = own(KvfleetProcess.start("memtrust-prefill", env, with(cluster, "node", "--id", "prefill-0")));
    decode = own(KvfleetProcess.start("memtrust-decode", env, with(cluster, "node", "--id", "decode-0")));
    coordinator.awaitValue("kvfleet-coordinator", 180);
    prefillApi = prefill.awaitValue("kvfleet-node-api", 180);
    decodeApi = decode.awaitValue("kvfleet-node-api", 180);
    TOKENS.put(prefillApi, prefill.apiToken());
    TOKENS.put(decodeApi, decode.apiToken());
    prefillKv = own(new SharedMemoryFile("kvfleet-it-" + ProcessHandle.current().pid() + "-memtrust", SECRET));
    String body = """
        {"components": [{"name": "kv_data", "kind": "KV", "memoryType": "DRAM",
          "handles": ["%s"], "lengths": [%d], "itemLengths": [%d]}]}
        """.formatted(prefillKv.handle(), SECRET, PAGE);
    var answer = post(prefillApi, body);
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    prefillEpoch = node(prefillApi).get("epoch").asLong();
    decodeEpoch = node(decodeApi).get("epoch").asLong();
    outsider = own(new RawRecords(bootstrap));
    router = own(new EventPublisher(bootstrap, "router-memtrust", 1, Clock.systemUTC()));
  }

  @AfterAll
  void stop() throws Exception {
    heartbeats.shutdownNow();
    for (var resource : owned.reversed()) {
      resource.close();
    }
    if (victim != null) {
      victim.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void forgedRecordsNamingAnUnrelatedProcessMoveNoByteFromOrIntoIt() throws Exception {
    Await.until("decode-0's join", Duration.ofSeconds(60), () -> joinOf("decode-0") != null);
    long epoch = System.currentTimeMillis();
    // evil-0: the pid and address form records carried before grants (what the attack used)
    forgeNode("evil-0", epoch, oldHostAddress(victimPid), oldHostKey(victimPid, victimAddress));
    // evil-1: a real agent's host address (read from its own join on Kafka) and a key whose grant
    // name is of that agent's token, at the victim's address: still no grant covers it
    byte[] decodeHost = hostAddressOf(joinOf("decode-0"));
    String stolen = "kvfleet-grant-" + HexFormat.of().toHexDigits(ByteBuffer.wrap(decodeHost).getLong())
        + HexFormat.of().toHexDigits(victimAddress);
    forgeNode("evil-1", epoch, new WorkerAddress("host", decodeHost).toBase64(),
        new RemoteKey("host", victimAddress, SECRET, newHostKey(stolen, victimAddress, SECRET)).toBase64());
    List<String> ids = new ArrayList<>();
    for (String evil : List.of("evil-0", "evil-1")) {
      for (TransferOp op : List.of(TransferOp.READ, TransferOp.WRITE)) {
        String id = "t-" + evil + "-" + op;
        ids.add(id);
        router.publish(new TransferRequested(id, "prefill-0", prefillEpoch, "kv_data-0", evil, epoch, "evil-kv",
            op, List.of(new ByteRange(0, 0, PAGE)), System.currentTimeMillis() + 60_000, false), id).get();
      }
    }
    Await.until("the forged transfers to end", Duration.ofSeconds(90),
        () -> ids.stream().allMatch(id -> state().transfer(id).map(t -> t.status().isTerminal()).orElse(false)));
    for (String id : ids) {
      TransferView view = state().transfer(id).orElseThrow();
      assertThat(view.status()).as(view.toString()).isEqualTo(TransferStatus.FAILED);
      assertThat(view.reason()).as(view.toString()).isIn(ReasonCodes.NO_GRANT, ReasonCodes.TRANSPORT_ERROR);
    }
    assertThat(state().transfer("t-evil-1-WRITE").orElseThrow().reason()).isEqualTo(ReasonCodes.NO_GRANT);
    assertThat(victimChanged()).as("bytes of the victim changed").isZero();
    String kv = new String(prefillKv.memory().toArray(java.lang.foreign.ValueLayout.JAVA_BYTE), StandardCharsets.ISO_8859_1);
    assertThat(kv).as("prefill-0's KV buffer").doesNotContain("kvfleet-victim");
  }

  @Test
  void anAgentRefusesToRegisterItsOwnHeapOrUnmappedMemoryAndAWriteAtItLeavesItAlive() throws Exception {
    long heap = largestAnonymousWritableMapping(decode.pid());
    String body = """
        {"components": [{"name": "heap", "kind": "KV", "memoryType": "DRAM",
          "addresses": [%d, %d], "lengths": [%d, %d], "itemLengths": [%d, %d]}]}
        """.formatted(heap, 0x10000L, SECRET, SECRET, PAGE, PAGE);
    var answer = post(decodeApi, body);
    for (int tries = 0; answer.statusCode() == 503 && tries < 30; tries++) { // joining again: a loaded machine
      Thread.sleep(1000);
      answer = post(decodeApi, body);
    }
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(422);
    decodeEpoch = node(decodeApi).get("epoch").asLong();
    JsonNode entries = JSON.readTree(answer.body()).get("entries");
    assertThat(entries.get(0).get("reason").asText()).as(answer.body()).isEqualTo(ReasonCodes.NOT_AGENT_MEMORY);
    assertThat(entries.get(1).get("reason").asText()).as(answer.body()).isEqualTo(ReasonCodes.INVALID_ADDRESS);
    router.publish(new TransferRequested("t-heap", "prefill-0", prefillEpoch, "kv_data-0", "decode-0", decodeEpoch,
        "heap-0", TransferOp.WRITE, List.of(new ByteRange(0, 0, SECRET)), System.currentTimeMillis() + 60_000, false),
        "t-heap").get();
    Await.until("t-heap to end", Duration.ofSeconds(60),
        () -> state().transfer("t-heap").map(t -> t.status().isTerminal()).orElse(false));
    assertThat(state().transfer("t-heap").orElseThrow().status()).isNotEqualTo(TransferStatus.COMPLETED);
    Thread.sleep(1000);
    assertThat(ProcessHandle.of(decode.pid()).map(ProcessHandle::isAlive)).as("decode-0's agent").contains(true);
    assertThat(node(decodeApi).get("nodeId").asText()).isEqualTo("decode-0");
  }

  /** Publishes a join, a region and heartbeats for {@code nodeId} with a plain producer, as anyone on Kafka can. */
  private void forgeNode(String nodeId, long epoch, String transport, String remoteKey) throws Exception {
    var host = new BackendCapability("host", true, "", List.of(MemoryType.DRAM), List.of("process_vm"), "");
    send(nodeId, epoch, new PeerJoined(nodeId, epoch, "127.0.0.1", transport, List.of(host)));
    send(nodeId, epoch, new PeerHeartbeat(nodeId, epoch, 3000));
    send(nodeId, epoch, new RegionRegistered(nodeId, epoch,
        new RegionSpec("evil-kv", RegionKind.KV, MemoryType.DRAM, -1, victimAddress, SECRET, PAGE, "evil", 0),
        "host", remoteKey));
    heartbeats.scheduleAtFixedRate(() -> {
      try {
        send(nodeId, epoch, new PeerHeartbeat(nodeId, epoch, 3000));
      } catch (Exception e) {
        // the test ends; the broker may be gone
      }
    }, 500, 500, TimeUnit.MILLISECONDS);
  }

  private synchronized void send(String producer, long epoch, FleetEvent event) throws Exception {
    var envelope = new Envelope(UUID.randomUUID().toString(), producer, epoch, sequence.incrementAndGet(),
        Instant.now(), "", event);
    outsider.send(Topics.topicOf(envelope), Topics.keyOf(envelope), new EventCodec().encode(envelope));
  }

  /** The host worker address before grants: pid, then the boot id. */
  private static String oldHostAddress(long pid) throws IOException {
    byte[] boot = Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).trim().getBytes(StandardCharsets.US_ASCII);
    byte[] bytes = ByteBuffer.allocate(4 + 2 + boot.length).putInt((int) pid).putShort((short) boot.length).put(boot).array();
    return new WorkerAddress("host", bytes).toBase64();
  }

  /** The host key before grants: pid, address, length. */
  private static String oldHostKey(long pid, long address) {
    byte[] packed = ByteBuffer.allocate(20).putInt((int) pid).putLong(address).putLong(SECRET).array();
    return new RemoteKey("host", address, SECRET, packed).toBase64();
  }

  /** The host key of grants: the grant's name, the offset in it, the length. */
  private static byte[] newHostKey(String grant, long offset, long length) {
    byte[] name = grant.getBytes(StandardCharsets.US_ASCII);
    return ByteBuffer.allocate(2 + name.length + 16).putShort((short) name.length).put(name).putLong(offset)
        .putLong(length).array();
  }

  private PeerJoined joinOf(String nodeId) {
    return log.envelopes().stream().map(Envelope::data)
        .filter(e -> e instanceof PeerJoined j && j.nodeId().equals(nodeId))
        .map(e -> (PeerJoined) e).reduce((a, b) -> b).orElse(null);
  }

  private static byte[] hostAddressOf(PeerJoined join) {
    for (String part : join.transportAddress().split(",")) {
      var address = WorkerAddress.fromBase64(part);
      if (address.backend().equals("host")) {
        return address.bytes();
      }
    }
    throw new IllegalStateException("no host address in " + join);
  }

  private void startVictim() throws Exception {
    String compiler = List.of("cc", "gcc").stream()
        .filter(c -> List.of(System.getenv().getOrDefault("PATH", "").split(":")).stream()
            .anyMatch(d -> Files.isExecutable(Path.of(d, c))))
        .findFirst().orElse(null);
    assumeTrue(compiler != null, "SKIPPED: no C compiler (cc or gcc) on PATH for the victim process");
    Path source = Path.of("src/test/resources/victim/victim.c");
    Path binary = Path.of("target", "memtrust-victim");
    Process cc = new ProcessBuilder(compiler, "-O0", "-o", binary.toString(), source.toString())
        .redirectErrorStream(true).start();
    String out = new String(cc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(cc.waitFor()).as(out).isZero();
    victim = new ProcessBuilder(binary.toString()).start();
    victimOut = new BufferedReader(new InputStreamReader(victim.getInputStream(), StandardCharsets.UTF_8));
    victimPid = Long.parseLong(victimOut.readLine().split("=")[1]);
    victimAddress = Long.parseLong(victimOut.readLine().split("=")[1]);
    assertThat(victimChanged()).isZero();
  }

  private long victimChanged() throws IOException {
    var in = new PrintStream(victim.getOutputStream(), true, StandardCharsets.UTF_8);
    in.println("check");
    return Long.parseLong(victimOut.readLine().split("=")[1]);
  }

  /** The start of the largest anonymous read-write mapping of {@code pid}: a JVM's is its heap. */
  private static long largestAnonymousWritableMapping(long pid) throws IOException {
    long best = 0;
    long bestSize = 0;
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/maps"))) {
      String[] f = line.trim().split("\\s+");
      if (f.length == 5 && f[1].startsWith("rw")) {
        String[] range = f[0].split("-");
        long start = Long.parseUnsignedLong(range[0], 16);
        long size = Long.parseUnsignedLong(range[1], 16) - start;
        if (size > bestSize) {
          best = start;
          bestSize = size;
        }
      }
    }
    assertThat(bestSize).as("an anonymous writable mapping in decode-0's agent").isGreaterThanOrEqualTo(SECRET);
    return best;
  }

  private FleetState state() {
    return FleetState.fold(log.envelopes());
  }

  private static HttpResponse<String> post(String api, String body) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(api + "/v1/components"))
        .header("Authorization", "Bearer " + TOKENS.get(api)).POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode node(String api) throws Exception {
    var node = HTTP.send(HttpRequest.newBuilder(URI.create(api + "/v1/node"))
        .header("Authorization", "Bearer " + TOKENS.get(api)).build(), HttpResponse.BodyHandlers.ofString());
    return JSON.readTree(node.body());
  }

  private static String[] with(List<String> cluster, String command, String... args) {
    List<String> all = new ArrayList<>(List.of(command));
    all.addAll(List.of(args));
    all.addAll(cluster);
    return all.toArray(String[]::new);
  }

  private <T extends AutoCloseable> T own(T resource) {
    owned.add(resource);
    return resource;
  }
}
