package io.kvfleet.control.demo;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.Json;
import io.kvfleet.control.agent.AgentConfig;
import io.kvfleet.control.dataplane.EngineDataPlane;
import io.kvfleet.control.agent.NodeAgent;
import io.kvfleet.control.agent.RegistrationPolicy;
import io.kvfleet.control.coordinator.Coordinator;
import io.kvfleet.control.coordinator.CoordinatorStatus;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.control.ops.OpsMetrics;
import io.kvfleet.control.ops.OpsOptions;
import io.kvfleet.control.ops.OpsServer;
import io.kvfleet.events.trust.Signing;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.function.LongSupplier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The demo fleet in one JVM: a coordinator, a prefill node and two decode nodes, and a router that
 * streams KV transfers from the prefill node to decode-0 and request transfers of a hybrid model to
 * decode-0 (which registered its conv state but not its SSM state: every one is rejected) and
 * decode-1 (which serves the model whole), all talking through Kafka and the Vert.x EventBus.
 */
public final class DemoFleet implements AutoCloseable {
  static final String PREFILL = "prefill-0";
  static final String DECODE = "decode-0";
  /** How many times the demo declares a layout of an agent that is joining again before it gives up. */
  private static final int REJOIN_ATTEMPTS = 30;

  /** The decode node that serves the hybrid model whole (decode-0 registered its conv state only). */
  static final String DECODE_WHOLE = "decode-1";
  /** The demo's nodes. */
  public static final List<String> NODES = List.of(PREFILL, DECODE, DECODE_WHOLE);
  /** The most transfer requests per second the demo's workload sends (one per millisecond). */
  public static final int MAX_RATE = 1000;
  static final String COORDINATOR = "coordinator-0";
  static final String ROUTER = "router-0";

  private final String bootstrapServers;
  private final Vertx vertx;
  private final OpsServer ops;
  private String dashboardUrl;
  private final List<AutoCloseable> owned = new ArrayList<>();
  private final List<String> agentDeployments = new ArrayList<>();
  private final java.util.Map<String, NodeAgent> agents = new java.util.HashMap<>();
  private final java.util.Map<String, EngineDataPlane> planes = new java.util.HashMap<>();
  private long workloadTimer = -1;
  private String coordinatorDeployment;
  private EventPublisher router;
  private DemoKeys keys;
  /** At most this long for the transfers in flight to end before the nodes leave. */
  private static final Duration DRAIN = Duration.ofSeconds(5);

  public DemoFleet(String bootstrapServers) {
    this(bootstrapServers, null);
  }

  /** A demo fleet whose coordinator serves the ops API, dashboard and metrics with {@code opsOptions} (null: none). */
  public DemoFleet(String bootstrapServers, OpsOptions opsOptions) {
    this.bootstrapServers = bootstrapServers;
    var registry = OpsMetrics.registry();
    this.vertx = opsOptions == null ? Vertx.vertx() : OpsMetrics.vertx(registry);
    this.ops = opsOptions == null ? null : new OpsServer(opsOptions, registry);
  }

  /** The coordinator's ops side, when started with ops. */
  public java.util.Optional<OpsServer> ops() {
    return java.util.Optional.ofNullable(ops);
  }

  /** The dashboard's address with its token, once started with ops. */
  public java.util.Optional<String> dashboardUrl() {
    return java.util.Optional.ofNullable(dashboardUrl);
  }

  /** Every producer signs with its own key and every reader verifies ({@code demo --signed}); call before start. */
  public DemoFleet signed(DemoKeys demoKeys) {
    this.keys = demoKeys;
    return this;
  }

  private Signing signing(String producer) {
    return keys == null ? Signing.off() : keys.of(producer);
  }

  private EventPublisher publisher(String producer, long epoch, Clock clock) {
    return own(new EventPublisher(bootstrapServers, producer, epoch, clock, EventPublisher.DEFAULT_CAPACITY,
        signing(producer).key()));
  }

  /** Records the coordinator did not fold (with --signed: any its writer had no right to say). */
  public long coordinatorPoison() throws Exception {
    return coordinatorStatus().poison();
  }

  /** Starts the coordinator and both agents, then a router sending {@code rate} requests per second. */
  public void start(int rate) throws Exception {
    var clock = Clock.systemUTC();
    var coordinatorEvents = publisher(COORDINATOR, AgentConfig.newEpoch(), clock);
    var coordinator = new Coordinator(bootstrapServers, coordinatorEvents, clock).withSigning(signing(COORDINATOR));
    coordinatorDeployment = await(vertx.deployVerticle(ops == null ? coordinator : coordinator.withWatcher(ops)));
    if (ops != null) {
      dashboardUrl = ops.dashboardUrl(await(ops.port()));
    }
    // Every buffer comes from its node's engine: an agent registers no other address of its process.
    startAgent(PREFILL, plane -> new DemoBuffers((byte) 0x5a, true, allocator(plane, "kv")), clock);
    startAgent(DECODE, plane -> new DemoBuffers((byte) 0, false, allocator(plane, "kv")), clock);
    startAgent(DECODE_WHOLE, plane -> null, clock);
    serve(PREFILL, new HybridModel((byte) 0x3c, true, allocator(planes.get(PREFILL), "model")));
    serve(DECODE, new HybridModel((byte) 0, false, allocator(planes.get(DECODE), "model")));
    serve(DECODE_WHOLE, new HybridModel((byte) 0, true, allocator(planes.get(DECODE_WHOLE), "model")));
    router = publisher(ROUTER, AgentConfig.newEpoch(), clock);
    // The router follows the agents' current epochs, as a real one would from the node topic.
    LongSupplier prefill = () -> agents.get(PREFILL).epoch();
    var workload = new Workload(router, prefill, () -> agents.get(DECODE).epoch());
    var requests = new RequestWorkload(router, prefill, List.of(DECODE, DECODE_WHOLE),
        List.of(() -> agents.get(DECODE).epoch(), () -> agents.get(DECODE_WHOLE).epoch()));
    var ticks = new java.util.concurrent.atomic.AtomicLong();
    workloadTimer = vertx.setPeriodic(Math.max(1, 1000 / rate), t -> {
      workload.next();
      if (ticks.incrementAndGet() % 4 == 0) {
        requests.next(); // one request transfer for every four single-region ones
      }
    });
  }

  /** {@code nodeId}'s agent registers the hybrid model's buffers and declares its layout. */
  private void serve(String nodeId, HybridModel model) throws Exception {
    for (int attempt = 1; ; attempt++) {
      try {
        await(agents.get(nodeId).declare(model.served()));
        return;
      } catch (java.util.concurrent.ExecutionException e) {
        if (!(e.getCause() instanceof KvfleetException k) || k.kind() != KvfleetException.Kind.REJOINING
            || attempt == REJOIN_ATTEMPTS) {
          throw e;
        }
        // A busy machine can starve heartbeats past the lease: the agent joins again at a new epoch.
        System.out.println("kvfleet demo: " + k.getMessage() + " (the machine is busy: heartbeats were not"
            + " acknowledged within the lease); declaring its layout again in a second");
        Thread.sleep(1_000);
      }
    }
  }

  /** Buffers of {@code plane}'s engine, named {@code prefix-<n>}. */
  private static java.util.function.LongFunction<java.lang.foreign.MemorySegment> allocator(
      EngineDataPlane plane, String prefix) {
    var count = new java.util.concurrent.atomic.AtomicInteger();
    return length -> plane.allocate(prefix + "-" + count.getAndIncrement(), length);
  }

  private long startAgent(String nodeId, java.util.function.Function<EngineDataPlane, DemoBuffers> buffersOf,
      Clock clock) throws Exception {
    var dataPlane = own(EngineDataPlane.open(nodeId));
    planes.put(nodeId, dataPlane);
    DemoBuffers buffers = buffersOf.apply(dataPlane);
    if (buffers != null) {
      own(buffers);
    }
    long epoch = AgentConfig.newEpoch();
    var config = new AgentConfig(nodeId, epoch, "127.0.0.1", buffers == null ? List.of() : buffers.components(),
        RegistrationPolicy.FALLBACK_STAGED, Duration.ofSeconds(1)).withSigning(signing(nodeId));
    var events = publisher(nodeId, epoch, clock);
    var agent = new NodeAgent(config, dataPlane, events);
    agents.put(nodeId, agent);
    agentDeployments.add(await(vertx.deployVerticle(agent)));
    return epoch;
  }

  /** Failure injection: {@code nodeId}'s agent goes silent after {@code delay}, as if killed. */
  public void crashLater(String nodeId, Duration delay) {
    var agent = agents.get(nodeId);
    if (agent == null) {
      throw io.kvfleet.control.KvfleetException.badInput("no node " + nodeId + " in the demo; it has " + agents.keySet());
    }
    vertx.setTimer(Math.max(1, delay.toMillis()), t -> {
      System.out.println("kvfleet demo: crashing " + nodeId + " now (no heartbeats, no answers, no goodbye)");
      agent.crash();
    });
  }

  /** Stops the router, lets the transfers in flight end, then lets the agents leave the fleet cleanly. */
  @Override
  public void close() throws Exception {
    vertx.cancelTimer(workloadTimer);
    try {
      drain();
    } catch (Exception e) {
      // The nodes leave either way; a transfer still in flight then ends PEER_LEFT.
      System.err.println("kvfleet demo: could not let the transfers in flight end: " + e.getMessage());
    }
    try {
      // All agents leave at once: each stop is bounded (NodeAgent.stop), one after another they add up.
      awaitFor("the agents to leave the fleet",
          io.vertx.core.Future.join(agentDeployments.stream().map(vertx::undeploy).toList()));
    } finally {
      try {
        awaitFor("the coordinator to stop", coordinatorDeployment == null ? io.vertx.core.Future.succeededFuture()
            : vertx.undeploy(coordinatorDeployment));
        awaitFor("Vert.x to close", vertx.close());
      } finally {
        for (var resource : owned.reversed()) {
          resource.close();
        }
      }
    }
  }

  /**
   * Waits, for at most {@link #DRAIN}, until the router's requests are on Kafka and the coordinator
   * holds no transfer in flight on two looks in a row (a request just written may not be read yet).
   */
  private void drain() throws Exception {
    long until = System.nanoTime() + DRAIN.toNanos();
    int quiet = 0;
    while (quiet < 2 && System.nanoTime() < until) {
      Thread.sleep(150);
      boolean idle = router != null && router.waiting() == 0 && coordinatorStatus().inFlightTransfers() == 0;
      quiet = idle ? quiet + 1 : 0;
    }
  }

  private CoordinatorStatus coordinatorStatus() throws Exception {
    var reply = await(vertx.eventBus().<String>request(CoordinatorStatus.address(COORDINATOR), ""));
    return Json.read(reply.body(), CoordinatorStatus.class);
  }

  private <T extends AutoCloseable> T own(T resource) {
    owned.add(resource);
    return resource;
  }

  private static <T> T await(io.vertx.core.Future<T> future) throws Exception {
    return awaitFor("a step of the demo", future);
  }

  /** Waits at most a minute for {@code what}; a timeout says what it waited for. */
  private static <T> T awaitFor(String what, io.vertx.core.Future<T> future) throws Exception {
    try {
      return future.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new java.util.concurrent.TimeoutException("kvfleet demo: waited 60 s for " + what);
    }
  }
}
