package io.kvfleet.control.replay;

import io.kvfleet.control.Json;
import io.kvfleet.control.coordinator.Coordinator;
import io.kvfleet.control.coordinator.FoldPosition;
import io.kvfleet.control.coordinator.SnapshotStore;
import io.kvfleet.control.kafka.Await;
import io.kvfleet.control.kafka.Collected;
import io.kvfleet.control.kafka.EmbeddedKafka;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.control.kafka.EventTail;
import io.kvfleet.control.kafka.FleetTopics;
import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.RegistrationFailed;
import io.kvfleet.events.Topics;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.state.FleetState;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A real fleet on the embedded broker for postmortem tests, played by hand: nodes and the router
 * are publishers the test drives (the test answers for the agents too), the coordinator is the
 * real one, with snapshots, and can be restarted; every event is also read back by a tail.
 */
final class FleetStory implements AutoCloseable {
  static final String COORDINATOR = "coordinator-0";
  static final long REGION = 1 << 20;

  final EmbeddedKafka kafka = EmbeddedKafka.startInTempDir();
  final Vertx vertx = Vertx.vertx();
  final Collected log = new Collected();
  final SnapshotStore snapshots;
  private final List<AutoCloseable> owned = new ArrayList<>();
  private final Map<String, EventPublisher> writers = new HashMap<>();
  private final EventTail tail;
  private int coordinatorEpoch;

  FleetStory(Path snapshotDir) {
    FleetTopics.ensure(kafka.bootstrapServers(), (short) 1);
    tail = EventTail.start(kafka.bootstrapServers(), Topics.ALL, log::add);
    snapshots = new SnapshotStore(snapshotDir);
  }

  String bootstrapServers() {
    return kafka.bootstrapServers();
  }

  /** Deploys a coordinator (a new incarnation of coordinator-0) that snapshots every 200 ms; waits until it caught up. */
  String startCoordinator() throws Exception {
    var events = own(new EventPublisher(bootstrapServers(), COORDINATOR, ++coordinatorEpoch, Clock.systemUTC()));
    var coordinator = new Coordinator(bootstrapServers(), events, Clock.systemUTC())
        .withSnapshots(snapshots, Duration.ofMillis(200), 1);
    String id = await(vertx.deployVerticle(coordinator));
    await(coordinator.caughtUp());
    return id;
  }

  void stop(String deploymentId) throws Exception {
    await(vertx.undeploy(deploymentId));
  }

  /** Publishes {@code event} as {@code producer} at {@code epoch} (one publisher per incarnation). */
  void publish(String producer, long epoch, FleetEvent event) throws Exception {
    writers.computeIfAbsent(producer + "@" + epoch,
        k -> own(new EventPublisher(bootstrapServers(), producer, epoch, Clock.systemUTC())))
        .publish(event, event.subject()).get(30, TimeUnit.SECONDS);
  }

  /** A node joins with host memory only (its CUDA backend is missing), registers kv-0, and heartbeats once. */
  void join(String node, long epoch, long leaseMillis) throws Exception {
    var host = new BackendCapability("host", true, "", List.of(MemoryType.DRAM), List.of("memcpy"), "");
    var cuda = new BackendCapability("cuda", false, "", List.of(), List.of(), "libcudart.so.12 not found");
    publish(node, epoch, new PeerJoined(node, epoch, "127.0.0.1", "", List.of(host, cuda)));
    publish(node, epoch, new RegionRegistered(node, epoch, kv(), "host", ""));
    publish(node, epoch, new PeerHeartbeat(node, epoch, leaseMillis));
  }

  /** The node fails to register a VRAM state tensor: its CUDA backend is missing. */
  void failStateTensor(String node, long epoch) throws Exception {
    var state = new RegionSpec("state-0", RegionKind.STATE, MemoryType.VRAM, 0, 0x7f00_0000_0000L, 1 << 16, 0,
        "state_data", 0);
    var cuda = new BackendCapability("cuda", false, "", List.of(), List.of(), "libcudart.so.12 not found");
    publish(node, epoch, new RegistrationFailed(node, epoch, state, "cuda", ReasonCodes.BACKEND_UNAVAILABLE,
        "libcudart.so.12 not found", 0, "", cuda, "install the CUDA runtime 12 or register state_data in host memory"));
  }

  static RegionSpec kv() {
    return new RegionSpec("kv-0", RegionKind.KV, MemoryType.DRAM, -1, 0x1000, REGION, 4096, "kv_data", 0);
  }

  /** The router asks for one page from prefill-0 to decode-0 at {@code destinationOffset}. */
  void request(String id, long prefillEpoch, long decodeEpoch, long destinationOffset) throws Exception {
    publish("router-0", 1, new TransferRequested(id, "prefill-0", prefillEpoch, "kv-0", "decode-0", decodeEpoch,
        "kv-0", TransferOp.WRITE, List.of(new ByteRange(0, destinationOffset, 4096)),
        System.currentTimeMillis() + 30_000, true));
  }

  /** Answers for prefill-0's agent: the transfer moved its page. */
  void complete(String id, long prefillEpoch) throws Exception {
    publish("prefill-0", prefillEpoch, new TransferCompleted(id, "prefill-0", 4096, 90_000, "host/memcpy", "1a2b3c4d"));
  }

  FleetState state() {
    return FleetState.fold(log.envelopes());
  }

  void awaitState(String what, Predicate<FleetState> condition) throws InterruptedException {
    Await.until(what, Duration.ofSeconds(60), () -> condition.test(state()));
  }

  /** The running coordinator's fold position. */
  FoldPosition position() throws Exception {
    var reply = await(vertx.eventBus().<String>request(FoldPosition.address(COORDINATOR), ""));
    return Json.read(reply.body(), FoldPosition.class);
  }

  private <T extends AutoCloseable> T own(T resource) {
    owned.add(resource);
    return resource;
  }

  static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  /** Stops everything but the broker's data: the log stays for nothing, the export is what remains. */
  @Override
  public void close() throws Exception {
    tail.close();
    await(vertx.close());
    for (var resource : owned.reversed()) {
      resource.close();
    }
    kafka.close();
  }
}
