package io.kvfleet.control.chaos;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.cluster.FreePorts;
import io.kvfleet.control.kafka.KafkaClients;
import io.kvfleet.control.kafka.KraftQuorum;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * The fleet under test, every piece its own OS process on loopback: one broker or a KRaft cluster of
 * three, one coordinator or a group of two, and two node agents ({@link #SOURCE}, {@link #DESTINATION})
 * whose KV buffers are POSIX shared memory registered through their local API. Each piece can be
 * killed, paused and started again on the same data and ports.
 */
final class ChaosFleet implements AutoCloseable {
  static final String SOURCE = "prefill-0";
  static final String DESTINATION = "decode-0";
  static final long PAGE = 16 * 1024;
  static final int PAGES = 64;
  private static final Duration START = Duration.ofSeconds(180);
  /** How long a registration is tried again while the agent answers that it is joining again. */
  private static final Duration REJOIN_WAIT = Duration.ofSeconds(30);
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  /** Each agent's local API token, by its API's URL. */
  private static final Map<String, String> TOKENS = new ConcurrentHashMap<>();
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ChaosConfig config;
  private final List<List<String>> brokerArgs = new ArrayList<>();
  private final List<Child> brokers = new ArrayList<>();
  private final List<Child> coordinators = new ArrayList<>();
  private final Map<String, Child> agents = new ConcurrentHashMap<>();
  private final Map<String, Long> epochs = new ConcurrentHashMap<>();
  private final Map<String, String> apis = new ConcurrentHashMap<>();
  private final Map<String, SharedBuffer> buffers = new ConcurrentHashMap<>();
  private final String bootstrap;
  private final String members;
  private final int clusterPort;
  private final boolean group;
  private volatile boolean closed;
  /** Kills every process and removes the buffers if this JVM is stopped (Ctrl-C, a runner's kill) before {@link #close}. */
  private final Thread cleanup = new Thread(() -> {
    agents.values().forEach(Child::kill);
    coordinators.forEach(Child::kill);
    brokers.forEach(Child::kill);
    buffers.values().forEach(SharedBuffer::close);
  });

  private ChaosFleet(ChaosConfig config, int brokerCount, int coordinatorCount) {
    this.config = config;
    this.group = coordinatorCount > 1;
    int[] ports = FreePorts.distinct(2 * brokerCount); // client ports, then controller ports
    int[] clientPorts = java.util.Arrays.copyOf(ports, brokerCount);
    this.bootstrap = String.join(",", IntStream.of(clientPorts).mapToObj(p -> "127.0.0.1:" + p).toList());
    try {
      this.clusterPort = FreePorts.clusterBase();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.members = FreePorts.members(clusterPort);
    String voters = String.join(",", IntStream.rangeClosed(1, brokerCount)
        .mapToObj(id -> id + "@127.0.0.1:" + ports[brokerCount + id - 1]).toList());
    for (int i = 0; i < brokerCount; i++) {
      var args = new ArrayList<>(List.of("kafka", "--port", Integer.toString(clientPorts[i]),
          "--data-dir", config.workDir().resolve("broker-" + (i + 1)).toString()));
      if (brokerCount > 1) {
        args.addAll(List.of("--node-id", Integer.toString(i + 1), "--controller-quorum", voters));
      }
      brokerArgs.add(List.copyOf(args));
    }
  }

  /** Starts {@code brokerCount} brokers, {@code coordinatorCount} coordinators and the two agents, and waits until all are ready. */
  static ChaosFleet start(ChaosConfig config, int brokerCount, int coordinatorCount) {
    var fleet = new ChaosFleet(config, brokerCount, coordinatorCount);
    Runtime.getRuntime().addShutdownHook(fleet.cleanup);
    try {
      Files.createDirectories(config.workDir());
      for (int i = 0; i < brokerCount; i++) {
        fleet.brokers.add(fleet.startBroker(i));
      }
      fleet.brokers.forEach(b -> b.awaitValue("kvfleet-kafka", START));
      // Coordinators and agents start side by side: each JVM's start-up is most of the wait.
      for (int i = 0; i < coordinatorCount; i++) {
        fleet.coordinators.add(fleet.startCoordinator(i));
      }
      for (String node : List.of(SOURCE, DESTINATION)) {
        fleet.buffers.put(node, new SharedBuffer(config.clusterName() + "-" + node, PAGE * PAGES));
        fleet.launchAgent(node);
      }
      fleet.coordinators.forEach(c -> c.awaitValue("kvfleet-coordinator", START));
      for (String node : List.of(SOURCE, DESTINATION)) {
        fleet.readyAgent(node);
      }
      Thread.ofPlatform().daemon().name("chaos-epochs").start(fleet::followEpochs);
      return fleet;
    } catch (RuntimeException | IOException e) {
      fleet.close();
      throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
    }
  }

  String bootstrap() {
    return bootstrap;
  }

  /** The current epoch of an agent (it changes when the agent starts again). */
  long epoch(String node) {
    return epochs.get(node);
  }

  private Child startBroker(int i) {
    return Child.start("broker-" + (i + 1), config.classpath(), config.workDir(), brokerArgs.get(i));
  }

  /** SIGKILL broker {@code i}, then start it again on the same folder and ports; answers how long it took to be ready. */
  Duration restartBroker(int i, Duration down) {
    return restart(brokers, i, down, this::startBroker, "kvfleet-kafka");
  }

  /** SIGKILL process {@code i} of {@code processes}, wait {@code down}, start it again and wait for its ready line. */
  private static Duration restart(List<Child> processes, int i, Duration down,
      java.util.function.IntFunction<Child> start, String ready) {
    processes.get(i).kill();
    Child.sleep(down);
    long started = System.nanoTime();
    var process = start.apply(i);
    processes.set(i, process);
    process.awaitValue(ready, START);
    return Duration.ofNanos(System.nanoTime() - started);
  }

  /** The index of the broker that is the active KRaft controller. */
  int controller() {
    try (var admin = KafkaClients.admin(bootstrap, Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"))) {
      return admin.describeMetadataQuorum().quorumInfo().get(30, TimeUnit.SECONDS).leaderId() - 1;
    } catch (Exception e) {
      throw KvfleetException.kafkaUnreachable(bootstrap, e);
    }
  }

  private Child startCoordinator(int i) {
    var args = new ArrayList<>(List.of("coordinator", "--id", "coordinator-" + i, "--bootstrap-servers", bootstrap,
        "--cluster-name", config.clusterName(), "--cluster-port", Integer.toString(clusterPort),
        "--cluster-members", members));
    if (group) {
      args.addAll(List.of("--group", config.clusterName() + "-coordinators"));
    }
    return Child.start("coordinator-" + i, config.classpath(), config.workDir(), args);
  }

  /** SIGKILL coordinator {@code i}, then start it again; answers how long it took to be ready. */
  Duration restartCoordinator(int i, Duration down) {
    return restart(coordinators, i, down, this::startCoordinator, "kvfleet-coordinator");
  }

  /** Starts (or starts again) an agent, registers its buffer through its API and learns its new epoch. */
  void startAgent(String node) {
    launchAgent(node);
    readyAgent(node);
  }

  /** Starts an agent's process without waiting for it. */
  private void launchAgent(String node) {
    agents.put(node, Child.start(node, config.classpath(), config.workDir(), List.of("node", "--id", node,
        "--bootstrap-servers", bootstrap, "--cluster-name", config.clusterName(), "--cluster-port",
        Integer.toString(clusterPort), "--cluster-members", members,
        "--heartbeat", config.heartbeat().toMillis() + "ms")));
  }

  /** Waits for a launched agent's API, registers its buffer through it and learns its epoch. */
  private void readyAgent(String node) {
    String api = agents.get(node).awaitValue("kvfleet-node-api", START);
    String tokenFile = agents.get(node).awaitValue("kvfleet-node-api-token-file", START);
    try {
      TOKENS.put(api, java.nio.file.Files.readString(java.nio.file.Path.of(tokenFile)).strip());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + node + "'s API token file " + tokenFile, e);
    }
    apis.put(node, api);
    register(api, buffers.get(node));
    epochs.put(node, nodeEpoch(api));
  }

  /**
   * Waits until {@code node}'s agent answers with an epoch other than {@code before} (a fenced agent
   * joins again by itself); answers how long that took, or nothing if it did not within {@code timeout}.
   */
  java.util.Optional<Duration> awaitNewEpoch(String node, long before, Duration timeout) {
    long started = System.nanoTime();
    while (System.nanoTime() - started < timeout.toNanos()) {
      if (epochs.get(node) != before) {
        return java.util.Optional.of(Duration.ofNanos(System.nanoTime() - started));
      }
      Child.sleep(Duration.ofMillis(100));
    }
    return java.util.Optional.empty();
  }

  /** As a router would, learns each agent's current epoch (a fenced agent joins again by itself) every 200 ms. */
  private void followEpochs() {
    while (!closed) {
      for (var node : List.copyOf(apis.keySet())) {
        try {
          epochs.put(node, nodeEpoch(apis.get(node)));
        } catch (RuntimeException e) {
          // down or joining again: the last epoch stands
        }
      }
      Child.sleep(Duration.ofMillis(200));
    }
  }

  Child agent(String node) {
    return agents.get(node);
  }

  private static void register(String api, SharedBuffer buffer) {
    String body = """
        {"components": [{"name": "kv_data", "kind": "KV", "memoryType": "DRAM",
          "handles": ["%s"], "lengths": [%d], "itemLengths": [%d]}]}
        """.formatted(buffer.handle(), PAGE * PAGES, PAGE);
    var request = HttpRequest.newBuilder(URI.create(api + "/v1/components"))
        .header("Authorization", "Bearer " + TOKENS.get(api))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    var answer = send(request);
    // 503: the agent is joining again with a new epoch (a busy machine let its lease lapse); it
    // says to try again, as a serving engine would.
    for (long until = System.nanoTime() + REJOIN_WAIT.toNanos(); answer.statusCode() == 503
        && System.nanoTime() < until; answer = send(request)) {
      Child.sleep(Duration.ofMillis(500));
    }
    if (answer.statusCode() != 200) {
      throw KvfleetException.badInput("registering " + buffer.handle() + " at " + api + " answered "
          + answer.statusCode() + ": " + answer.body());
    }
  }

  private static long nodeEpoch(String api) {
    var node = send(HttpRequest.newBuilder(URI.create(api + "/v1/node"))
        .header("Authorization", "Bearer " + TOKENS.get(api)).build());
    try {
      return JSON.readTree(node.body()).get("epoch").asLong();
    } catch (IOException e) {
      throw new UncheckedIOException("unreadable answer from " + api + "/v1/node: " + node.body(), e);
    }
  }

  private static HttpResponse<String> send(HttpRequest request) {
    try {
      return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException("no answer from " + request.uri(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw KvfleetException.badInput("interrupted");
    }
  }

  /** Stops every process (agents, then coordinators, then brokers) and removes the buffers, whatever fails on the way. */
  @Override
  public void close() {
    closed = true;
    Runtime.getRuntime().removeShutdownHook(cleanup);
    List<AutoCloseable> all = new ArrayList<>(agents.values());
    all.addAll(coordinators);
    all.addAll(brokers);
    all.addAll(buffers.values());
    for (var each : all) {
      try {
        each.close();
      } catch (Exception e) {
        System.err.println("chaos: could not stop " + each + ": " + e);
      }
    }
  }
}
