package io.kvfleet.control.bench;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.agent.AgentConfig;
import io.kvfleet.control.agent.Component;
import io.kvfleet.control.dataplane.InProcessDataPlane;
import io.kvfleet.control.agent.NodeAgent;
import io.kvfleet.control.agent.RegistrationPolicy;
import io.kvfleet.control.coordinator.Coordinator;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.control.ops.ApiToken;
import io.kvfleet.control.ops.OpsMetrics;
import io.kvfleet.control.ops.OpsOptions;
import io.kvfleet.control.ops.OpsServer;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.lang.foreign.Arena;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Ours: a real coordinator and real node agents in pairs (prefill and decode) in this JVM on a real
 * broker, with the in-JVM memcpy data plane, so what is measured is the control plane. A router
 * publishes one {@code TransferRequested} per request, request {@code n} from pair {@code n mod
 * pairs}; {@link TerminalReader} answers it when the transfer's terminal event is read back from
 * Kafka.
 */
final class FleetBench implements Target {
  static final String PREFILL = "bench-prefill-0";
  static final String DECODE = "bench-decode-0";
  /** Probe ids of pair {@code p} count down from {@code -1 - p * PROBES}, so no two pairs share one. */
  private static final long PROBES = 1_000_000;
  static final String REGION = "kv_data-0";
  static final long PAGE = 4096;
  private static final int REGION_PAGES = 256;
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  private final String bootstrapServers;
  private final int pages;
  private final int pairs;
  private final String idPrefix = "bench-" + UUID.randomUUID().toString().substring(0, 8) + "-";
  private final Vertx vertx;
  /** With metrics: the coordinator folds them and serves /metrics, Vert.x reports its own. */
  private final OpsServer ops;
  private final Arena arena = Arena.ofShared();
  private final List<AutoCloseable> owned = new ArrayList<>();
  private EventPublisher router;
  private long[] prefillEpochs;
  private long[] decodeEpochs;
  private TerminalReader reader;
  /** How long the coordinator remembers an ended transfer; null: its default. */
  private Duration keepEnded;

  private FleetBench(String bootstrapServers, int pages, int agents, boolean metrics) {
    if (agents < 2 || agents % 2 != 0) {
      throw new IllegalArgumentException("agents come in prefill/decode pairs: " + agents);
    }
    this.bootstrapServers = bootstrapServers;
    this.pages = pages;
    this.pairs = agents / 2;
    var registry = OpsMetrics.registry();
    this.vertx = metrics ? OpsMetrics.vertx(registry) : Vertx.vertx();
    this.ops = metrics ? new OpsServer(OpsOptions.loopback(0, ApiToken.resolve(null, java.util.Map.of())), registry) : null;
  }

  /**
   * Starts the fleet of {@code agents} node agents and its terminal-event reader, and returns once
   * a probe transfer of every pair has completed end to end.
   */
  static FleetBench start(String bootstrapServers, int pages, int agents, Duration keepEnded, Answers answers,
      boolean metrics) throws Exception {
    var bench = new FleetBench(bootstrapServers, pages, agents, metrics);
    bench.keepEnded = keepEnded;
    try {
      bench.startFleet();
      bench.reader = bench.own(TerminalReader.start(bootstrapServers, bench.idPrefix, answers));
      for (int pair = 0; pair < bench.pairs; pair++) {
        int p = pair;
        bench.reader.awaitFirstCompletion(id -> bench.sendFrom(p, id), -1 - p * PROBES, Duration.ofSeconds(60));
      }
      return bench;
    } catch (Exception | Error e) {
      bench.close();
      throw e;
    }
  }

  /** The sizes of this bench's request and terminal records, for transfers of {@code pages} pages. */
  static RecordSizes recordSizes(int pages) {
    var request = request("bench-0123abcd-100000", 1_760_000_000_000L, 1_760_000_000_001L, pages, 100_000);
    var completed = new TransferCompleted(request.transferId(), PREFILL, request.totalBytes(), 12_345,
        "jvm/memcpy", "0123abcd");
    return RecordSizes.of(request, "bench-router", completed, PREFILL);
  }

  @Override
  public String name() {
    return "kvfleet";
  }

  /** The source nodes, pair by pair: the keys of this fleet's transfer records. */
  List<String> sources() {
    return java.util.stream.IntStream.range(0, pairs).mapToObj(p -> prefill(p)).toList();
  }

  /** The encoded size of a dispatch as the coordinator wrote one in the probes. */
  int dispatchedBytes() {
    return reader.dispatchedBytes();
  }

  @Override
  public void send(long id) {
    sendFrom((int) Math.floorMod(id, (long) pairs), id);
  }

  private void sendFrom(int pair, long id) {
    var request = request(idPrefix + id, prefill(pair), prefillEpochs[pair], decode(pair), decodeEpochs[pair],
        pages, id);
    router.publish(request, request.transferId());
  }

  private static String prefill(int pair) {
    return "bench-prefill-" + pair;
  }

  private static String decode(int pair) {
    return "bench-decode-" + pair;
  }

  private void startFleet() throws Exception {
    var clock = Clock.systemUTC();
    var coordinatorEvents = own(new EventPublisher(bootstrapServers, "bench-coordinator", AgentConfig.newEpoch(), clock));
    var coordinator = new Coordinator(bootstrapServers, coordinatorEvents, clock);
    if (keepEnded != null) {
      coordinator.withKeepEnded(keepEnded);
    }
    await(vertx.deployVerticle(ops == null ? coordinator : coordinator.withWatcher(ops)));
    prefillEpochs = new long[pairs];
    decodeEpochs = new long[pairs];
    for (int pair = 0; pair < pairs; pair++) {
      prefillEpochs[pair] = startAgent(prefill(pair), clock);
      decodeEpochs[pair] = startAgent(decode(pair), clock);
    }
    router = own(new EventPublisher(bootstrapServers, "bench-router", AgentConfig.newEpoch(), clock));
  }

  private long startAgent(String nodeId, Clock clock) throws Exception {
    long length = REGION_PAGES * PAGE;
    var kv = arena.allocate(length, PAGE);
    var component = new Component("kv_data", RegionKind.KV, MemoryType.DRAM, -1,
        List.of(kv.address()), List.of(length), List.of(PAGE));
    long epoch = AgentConfig.newEpoch();
    var config = new AgentConfig(nodeId, epoch, "127.0.0.1", List.of(component),
        RegistrationPolicy.CONTINUE_WITHOUT, Duration.ofSeconds(1));
    var dataPlane = own(new InProcessDataPlane());
    var events = own(new EventPublisher(bootstrapServers, nodeId, epoch, clock));
    await(vertx.deployVerticle(new NodeAgent(config, dataPlane, events)));
    return epoch;
  }

  /** A WRITE of {@code pages} 4 KiB pages, one range each, from the first pair's prefill to its decode. */
  static TransferRequested request(String transferId, long prefillEpoch, long decodeEpoch, int pages, long seed) {
    return request(transferId, PREFILL, prefillEpoch, DECODE, decodeEpoch, pages, seed);
  }

  private static TransferRequested request(String transferId, String prefill, long prefillEpoch, String decode,
      long decodeEpoch, int pages, long seed) {
    List<ByteRange> ranges = new ArrayList<>(pages);
    for (int i = 0; i < pages; i++) {
      long page = Math.floorMod(seed + i, REGION_PAGES);
      ranges.add(new ByteRange(page * PAGE, page * PAGE, PAGE));
    }
    return new TransferRequested(transferId, prefill, prefillEpoch, REGION, decode, decodeEpoch, REGION,
        TransferOp.WRITE, ranges, System.currentTimeMillis() + DEADLINE.toMillis(), true);
  }

  private <T extends AutoCloseable> T own(T resource) {
    owned.add(resource);
    return resource;
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  /** Stops the agents (they leave the fleet), the coordinator, the reader and the publishers. */
  @Override
  public void close() {
    Exception first = null;
    try {
      await(vertx.close());
    } catch (Exception e) {
      first = e;
    }
    for (var resource : owned.reversed()) {
      try {
        resource.close();
      } catch (Exception e) {
        first = first == null ? e : first;
      }
    }
    arena.close();
    if (first != null) {
      throw KvfleetException.benchFailed("the bench fleet did not stop cleanly", first);
    }
  }
}
