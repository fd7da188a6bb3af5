package io.kvfleet.control.bench;

import io.kvfleet.control.agent.AgentConfig;
import io.kvfleet.control.agent.Component;
import io.kvfleet.control.dataplane.EngineDataPlane;
import io.kvfleet.control.agent.NodeAgent;
import io.kvfleet.control.agent.RegistrationPolicy;
import io.kvfleet.control.agent.ServedComponent;
import io.kvfleet.control.agent.ServedModel;
import io.kvfleet.control.coordinator.Coordinator;
import io.kvfleet.control.kafka.EmbeddedKafka;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.control.kafka.FleetTopics;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.RegionKind;
import io.vertx.core.Vertx;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The fleet {@code bench request} measures: an embedded broker, a coordinator, a prefill and a
 * decode agent on the native engine in this JVM, both serving one hybrid model, and a router.
 */
final class RequestFleet implements AutoCloseable {
  static final String PREFILL = "prefill-0";
  static final String DECODE = "decode-0";

  /** How one component is cut: buffers of {@code slots} items of {@code item} bytes. */
  record Cut(String name, RegionKind kind, int buffers, long item, int slots) {}

  final List<Cut> cuts;
  final Map<String, Long> epochs = new HashMap<>();
  final EventPublisher router;
  final EmbeddedKafka kafka = EmbeddedKafka.startInTempDir();
  private final Vertx vertx = Vertx.vertx();
  private final Arena arena = Arena.ofShared();
  private final List<AutoCloseable> owned = new ArrayList<>();

  RequestFleet(List<Cut> cuts) throws Exception {
    this.cuts = List.copyOf(cuts);
    FleetTopics.ensure(kafka.bootstrapServers(), (short) 1);
    var clock = Clock.systemUTC();
    var coordinatorEvents = own(new EventPublisher(kafka.bootstrapServers(), "coordinator-bench", 1, clock));
    await(vertx.deployVerticle(new Coordinator(kafka.bootstrapServers(), coordinatorEvents, clock)));
    for (String node : List.of(PREFILL, DECODE)) {
      long epoch = AgentConfig.newEpoch();
      epochs.put(node, epoch);
      var config = new AgentConfig(node, epoch, "127.0.0.1", List.of(), RegistrationPolicy.CONTINUE_WITHOUT,
          Duration.ofSeconds(1));
      var dataPlane = own(EngineDataPlane.open(node));
      var agent = new NodeAgent(config, dataPlane, own(new EventPublisher(kafka.bootstrapServers(), node, epoch, clock,
          1 << 16)));
      await(vertx.deployVerticle(agent));
      await(agent.declare(model(dataPlane, node.equals(PREFILL) ? (byte) 0x42 : 0)));
    }
    router = own(new EventPublisher(kafka.bootstrapServers(), "router-bench", 1, clock, 1 << 16));
  }

  /** The model's buffers come from the node's engine: the agent registers no other addresses. */
  private ServedModel model(EngineDataPlane dataPlane, byte fill) {
    List<ServedComponent> components = new ArrayList<>();
    for (Cut c : cuts) {
      List<Long> addresses = new ArrayList<>();
      List<Long> lengths = new ArrayList<>();
      for (int b = 0; b < c.buffers(); b++) {
        MemorySegment buffer = dataPlane.allocate(c.name() + "-" + b, c.item() * c.slots());
        buffer.fill(fill);
        addresses.add(buffer.address());
        lengths.add(buffer.byteSize());
      }
      var memory = MemoryType.DRAM; // host memory, so it registers on any machine
      components.add(new ServedComponent(new Component(c.name(), c.kind(), memory, -1, addresses, lengths,
          addresses.stream().map(a -> c.item()).toList()), "bfloat16", c.kind() == RegionKind.KV ? 16 : 1, List.of()));
    }
    return new ServedModel("bench-hybrid", 0, 1, components);
  }

  private <T extends AutoCloseable> T own(T resource) {
    owned.add(resource);
    return resource;
  }

  private static <T> T await(io.vertx.core.Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws Exception {
    await(vertx.close());
    for (var resource : owned.reversed()) {
      resource.close();
    }
    arena.close();
    kafka.close();
  }
}
