package io.kvfleet.control.coordinator;

import io.kvfleet.control.dataplane.InProcessDataPlane;
import io.kvfleet.control.kafka.Await;
import io.kvfleet.events.FleetEvent;
import java.time.Duration;
import java.util.function.Predicate;

/** The test fleet for tests outside this package. */
public final class FleetAccess implements AutoCloseable {
  private final Fleet fleet = new Fleet();
  /** The last agent started on the native engine: {@link #allocate} takes its memory. */
  private io.kvfleet.control.dataplane.EngineDataPlane engine;

  /** Starts an agent on the jvm data plane with its HTTP API; answers the API's port. */
  public int agentWithApi(String nodeId) throws Exception {
    fleet.startAgent(nodeId, 1, new InProcessDataPlane(), Duration.ofSeconds(1), 0);
    return fleet.agent(nodeId).httpPort();
  }

  /** Starts an agent on the native engine (every backend this machine has) with its HTTP API; answers the port. */
  public int agentOnEngineWithApi(String nodeId) throws Exception {
    engine = io.kvfleet.control.dataplane.EngineDataPlane.open(nodeId);
    fleet.startAgent(nodeId, 1, engine, Duration.ofSeconds(1), 0);
    return fleet.agent(nodeId).httpPort();
  }

  /** The bearer token of the agent whose API listens on {@code port}. */
  public String apiTokenAt(int port) {
    return fleet.agents().stream().filter(a -> a.httpPort() == port).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no agent's API on port " + port)).apiToken().value();
  }

  /**
   * Host memory that stays valid until close; answers its address. On an agent on the native engine
   * it is that engine's memory (the only addresses it registers), else the test's own.
   */
  public long allocate(long bytes) {
    return engine != null ? engine.allocate("test-" + bytes, bytes).address()
        : fleet.memory.allocate(bytes, 4096).address();
  }

  public void awaitEvents(String what, Predicate<FleetEvent> match) throws InterruptedException {
    Await.until(what, Duration.ofSeconds(60),
        () -> fleet.log.envelopes().stream().map(e -> e.data()).anyMatch(match));
  }

  /** Every event read back from Kafka so far. */
  public java.util.List<FleetEvent> events() {
    return fleet.log.envelopes().stream().map(e -> e.data()).toList();
  }

  /** The current epoch of the agent last started for {@code nodeId}. */
  public long epochOf(String nodeId) {
    return fleet.agent(nodeId).epoch();
  }

  public void stopBroker() {
    fleet.kafka.stopServer();
  }

  public void restartBroker() {
    fleet.kafka.restart();
  }

  @Override
  public void close() throws Exception {
    fleet.close();
  }
}
