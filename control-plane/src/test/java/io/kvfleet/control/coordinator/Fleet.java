package io.kvfleet.control.coordinator;

import io.kvfleet.control.agent.AgentConfig;
import io.kvfleet.control.agent.Component;
import io.kvfleet.control.dataplane.DataPlane;
import io.kvfleet.control.dataplane.EngineDataPlane;
import io.kvfleet.control.agent.NodeAgent;
import io.kvfleet.control.agent.RegistrationPolicy;
import io.kvfleet.control.kafka.Await;
import io.kvfleet.control.kafka.Collected;
import io.kvfleet.control.kafka.EmbeddedKafka;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.control.kafka.EventTail;
import io.kvfleet.control.kafka.FleetTopics;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.Topics;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.state.FleetState;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.lang.foreign.Arena;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A small real fleet for coordinator tests: an embedded broker, a Vert.x instance, coordinators
 * and agents started and stopped at will, a router, and every event read back from Kafka.
 */
final public class Fleet implements AutoCloseable {
  static final long REGION = 1 << 20;

  final Arena memory = Arena.ofShared();
  final EmbeddedKafka kafka = EmbeddedKafka.startInTempDir();
  final Vertx vertx = Vertx.vertx();
  final Collected log = new Collected();
  private final Arena arena = Arena.ofShared();
  private final List<AutoCloseable> owned = new ArrayList<>();
  private final EventTail tail;
  private final EventPublisher router;
  private final java.util.Map<String, NodeAgent> agents = new java.util.HashMap<>();
  private final java.util.Map<String, EventPublisher> agentEvents = new java.util.HashMap<>();
  private final java.util.Map<String, EventPublisher> coordinatorEvents = new java.util.HashMap<>();
  private int coordinators;
  private int agentEventCapacity = EventPublisher.DEFAULT_CAPACITY;
  private io.kvfleet.events.trust.Signing agentSigning = io.kvfleet.events.trust.Signing.off();
  private int coordinatorEventCapacity = EventPublisher.DEFAULT_CAPACITY;

  Fleet() {
    FleetTopics.ensure(kafka.bootstrapServers(), (short) 1);
    tail = EventTail.start(kafka.bootstrapServers(), Topics.ALL, log::add);
    router = own(new EventPublisher(kafka.bootstrapServers(), "router", 1, Clock.systemUTC()));
  }

  /** Deploys a coordinator {@code id} in the consumer group {@code group}; answers its deployment id. */
  String startGroupCoordinator(String id, String group) throws Exception {
    return startGroupCoordinator(id, group, Map.of());
  }

  /** As above, its producer with settings of its own ({@code linger.ms}: its answers held back that long). */
  String startGroupCoordinator(String id, String group, Map<String, Object> producerSettings) throws Exception {
    var events = own(new EventPublisher(kafka.bootstrapServers(), id, ++coordinators, Clock.systemUTC(),
        EventPublisher.DEFAULT_CAPACITY, java.util.Optional.empty(), producerSettings));
    coordinatorEvents.put(id, events);
    return await(vertx.deployVerticle(
        new Coordinator(kafka.bootstrapServers(), events, Clock.systemUTC()).withGroup(group)));
  }

  /** How many partitions {@code topic} has. */
  int partitions(String topic) throws Exception {
    try (var admin = org.apache.kafka.clients.admin.Admin.create(
        Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      return admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().size();
    }
  }

  /** What coordinator {@code id} reports about itself. */
  CoordinatorStatus status(String id) throws Exception {
    var reply = await(vertx.eventBus().<String>request(CoordinatorStatus.address(id), ""));
    return io.kvfleet.control.Json.read(reply.body(), CoordinatorStatus.class);
  }

  /** Deploys a new coordinator incarnation; answers its deployment id. */
  String startCoordinator() throws Exception {
    return startCoordinator(c -> c);
  }

  /** Deploys a new coordinator incarnation {@code coordinator}, configured by {@code configure}. */
  String startCoordinator(java.util.function.UnaryOperator<Coordinator> configure) throws Exception {
    var events = own(new EventPublisher(kafka.bootstrapServers(), "coordinator", ++coordinators, Clock.systemUTC(),
        coordinatorEventCapacity));
    return await(vertx.deployVerticle(configure.apply(new Coordinator(kafka.bootstrapServers(), events,
        Clock.systemUTC()))));
  }

  /** Where coordinator {@code id}'s fold stands. */
  FoldPosition position(String id) throws Exception {
    var reply = await(vertx.eventBus().<String>request(FoldPosition.address(id), ""));
    return io.kvfleet.control.Json.read(reply.body(), FoldPosition.class);
  }

  /** Starts an agent with one KV region {@code kv_data-0} of 1 MiB of host memory. */
  String startAgent(String nodeId, long epoch, DataPlane dataPlane, Duration heartbeat) throws Exception {
    return startAgent(nodeId, epoch, dataPlane, heartbeat, -1);
  }

  /** Starts an agent as above, with its local HTTP API on a free loopback port when {@code httpPort} is 0. */
  String startAgent(String nodeId, long epoch, DataPlane dataPlane, Duration heartbeat, int httpPort)
      throws Exception {
    // an agent on the native engine registers only its engine's memory by address
    var kv = dataPlane instanceof EngineDataPlane engine ? engine.allocate("kv", REGION) : arena.allocate(REGION, 4096);
    var component = new Component("kv_data", RegionKind.KV, MemoryType.DRAM, -1,
        List.of(kv.address()), List.of(REGION), List.of(4096L));
    return startAgent(nodeId, epoch, dataPlane, heartbeat, httpPort, List.of(component),
        RegistrationPolicy.CONTINUE_WITHOUT);
  }

  /** Starts an agent with {@code components} registered under {@code policy}. */
  String startAgent(String nodeId, long epoch, DataPlane dataPlane, Duration heartbeat, int httpPort,
      List<Component> components, RegistrationPolicy policy) throws Exception {
    var config = new AgentConfig(nodeId, epoch, "127.0.0.1", components, policy, heartbeat, httpPort);
    var events = own(new EventPublisher(kafka.bootstrapServers(), nodeId, epoch, Clock.systemUTC(),
        agentEventCapacity)).warm(Topics.NODES, Topics.TRANSFERS); // as `kvfleet node` starts one
    own(dataPlane);
    var agent = new NodeAgent(config.withSigning(agentSigning), dataPlane, events);
    agents.put(nodeId, agent);
    agentEvents.put(nodeId, events);
    return await(vertx.deployVerticle(agent));
  }

  /** Coordinators started from now on may keep this many events waiting for Kafka before they refuse more. */
  void coordinatorEventCapacity(int capacity) {
    coordinatorEventCapacity = capacity;
  }

  /** Agents started from now on may keep this many events waiting for Kafka before they refuse more. */
  /** The signing (trust file) the agents started from now on run with. */
  void agentSigning(io.kvfleet.events.trust.Signing signing) {
    this.agentSigning = signing;
  }

  void agentEventCapacity(int capacity) {
    agentEventCapacity = capacity;
  }

  /** Publishes {@code event} as {@code producer} at {@code epoch}, sequence 1 (one-off writers). */
  void publishAs(String producer, long epoch, FleetEvent event) throws Exception {
    try (var publisher = new EventPublisher(kafka.bootstrapServers(), producer, epoch, Clock.systemUTC())) {
      publisher.publish(event, "").get(30, TimeUnit.SECONDS);
    }
  }

  /** The agent last started for {@code nodeId}. */
  java.util.Collection<NodeAgent> agents() {
    return java.util.List.copyOf(agents.values());
  }

  NodeAgent agent(String nodeId) {
    return agents.get(nodeId);
  }

  /** The publisher of the first incarnation of the agent last started for {@code nodeId}. */
  /** The publisher of group coordinator {@code id}: what it decided and Kafka has not acknowledged yet. */
  EventPublisher coordinatorEvents(String id) {
    return coordinatorEvents.get(id);
  }

  EventPublisher agentEvents(String nodeId) {
    return agentEvents.get(nodeId);
  }

  void stop(String deploymentId) throws Exception {
    await(vertx.undeploy(deploymentId));
  }

  /** Publishes a WRITE of one 4 KiB page from prefill-0 to decode-0. */
  TransferRequested request(String id, long prefillEpoch, long decodeEpoch, Duration deadline) throws Exception {
    return request(id, prefillEpoch, "decode-0", decodeEpoch, deadline);
  }

  /** Publishes a WRITE of one 4 KiB page from prefill-0 to {@code destination}. */
  TransferRequested request(String id, long prefillEpoch, String destination, long destinationEpoch,
      Duration deadline) throws Exception {
    var request = new TransferRequested(id, "prefill-0", prefillEpoch, "kv_data-0", destination, destinationEpoch,
        "kv_data-0", TransferOp.WRITE, List.of(new ByteRange(0, 4096, 4096)),
        System.currentTimeMillis() + deadline.toMillis(), true);
    router.publish(request, id).get(30, TimeUnit.SECONDS);
    return request;
  }

  /** Publishes {@code event} as the fleet's router. */
  void route(FleetEvent event) throws Exception {
    router.publish(event, event.subject()).get(30, TimeUnit.SECONDS);
  }

  FleetState state() {
    return FleetState.fold(log.envelopes());
  }

  /** Every event in the log about {@code subject} that {@code filter} accepts. */
  List<FleetEvent> events(String subject, Predicate<FleetEvent> filter) {
    return log.envelopes().stream().map(e -> e.data())
        .filter(e -> e.subject().equals(subject)).filter(filter).toList();
  }

  void awaitState(String what, Duration limit, Predicate<FleetState> condition) throws InterruptedException {
    Await.until(what, limit, () -> condition.test(state()));
  }

  private <T extends AutoCloseable> T own(T resource) {
    owned.add(resource);
    return resource;
  }

  static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws Exception {
    // A stopping agent waits for the transfers it runs: let the stuck ones go rather than wait.
    owned.stream().filter(StuckDataPlane.class::isInstance).forEach(r -> ((StuckDataPlane) r).release());
    await(vertx.close());
    tail.close();
    for (var resource : owned.reversed()) {
      resource.close();
    }
    arena.close();
    memory.close();
    kafka.close();
  }
}
