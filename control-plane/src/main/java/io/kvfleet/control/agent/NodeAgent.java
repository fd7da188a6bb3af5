package io.kvfleet.control.agent;

import io.kvfleet.control.dataplane.DataPlane;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.control.protocol.Addresses;
import io.kvfleet.control.protocol.Protocol;
import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.ReasonCodes;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import java.time.Duration;
import java.util.List;

/**
 * One node's agent: joins the fleet with a new epoch, registers the node's buffers, heartbeats,
 * and runs the transfers the coordinator dispatches to it. Native work runs on worker threads;
 * the event loop only publishes outcomes. Every dispatched transfer gets one terminal event.
 * Orchestration only: its jobs are {@link Registrations}, {@link OrderRunner}, {@link LandingDesk}
 * and {@link OutcomePublisher}.
 *
 * <p>Stopping drains: the agent refuses new orders ({@code PEER_LEFT}, with why), finishes and
 * reports the transfers it is running (for at most {@link #STOP_DRAIN} or {@link #withStopDrain},
 * heartbeating meanwhile), then leaves the fleet. A crashed agent does none of this.
 */
public final class NodeAgent extends VerticleBase {
  private final AgentConfig config;
  private final DataPlane dataPlane;
  private final EventPublisher publisher;

  private long heartbeatTimer = -1;
  private MessageConsumer<Object> orders;
  private MessageConsumer<Object> landings;
  private OutcomePublisher outcomes;
  private Registrations registrations;
  private LandingDesk landingDesk;
  private OrderRunner runner;
  private volatile int httpPort = -1;
  private volatile boolean crashed;
  /** How long a stopping agent waits for the transfers it runs to end before it leaves, by default. */
  public static final Duration STOP_DRAIN = Duration.ofSeconds(10);
  private volatile Duration stopDrain = STOP_DRAIN;

  public NodeAgent(AgentConfig config, DataPlane dataPlane, EventPublisher publisher) {
    this.config = config;
    this.dataPlane = dataPlane;
    this.publisher = publisher;
  }

  /** Waits up to {@code drain} on stop for the transfers it runs to end; call before stopping. */
  public NodeAgent withStopDrain(Duration drain) {
    this.stopDrain = drain;
    return this;
  }

  @Override
  public Future<?> start() {
    Protocol.install(vertx.eventBus());
    outcomes = new OutcomePublisher(vertx, context, publisher, () -> crashed);
    registrations = new Registrations(vertx, config, dataPlane, outcomes, this::leave);
    var joined = new PeerJoined(config.nodeId(), config.epoch(), config.host(),
        dataPlane.transportAddress(), dataPlane.capabilities());
    return outcomes.publish(joined, config.nodeId())
        .compose(v -> registrations.registerRegions())
        .compose(v -> {
          landingDesk = new LandingDesk(vertx, config.nodeId(), dataPlane);
          runner = new OrderRunner(vertx, config, dataPlane, outcomes, landingDesk);
          orders = vertx.eventBus().consumer(Addresses.transfers(config.nodeId()), runner::onOrder);
          landings = vertx.eventBus().consumer(Addresses.landings(config.nodeId()), landingDesk::onLanding);
          heartbeat(); // the lease starts now, not one period from now
          heartbeatTimer = vertx.setPeriodic(config.heartbeat().toMillis(), t -> heartbeat());
          return config.httpPort() < 0 ? Future.succeededFuture()
              : vertx.createHttpServer().requestHandler(AgentApi.router(vertx, this))
                  .listen(config.httpPort(), "127.0.0.1").onSuccess(server -> httpPort = server.actualPort());
        });
  }

  @Override
  public Future<?> stop() {
    if (crashed) {
      return Future.succeededFuture();
    }
    Future<?> drained = runner == null ? Future.succeededFuture() : runner.drain(stopDrain);
    return drained.compose(done -> {
      vertx.cancelTimer(heartbeatTimer);
      if (landingDesk != null) {
        landingDesk.close();
      }
      return leave(ReasonCodes.SHUTDOWN);
    });
  }

  /**
   * Registers buffers for a local worker: one outcome per region and backend, the policy's
   * decisions, all published; answers once Kafka has them, or after a few seconds with the events
   * marked pending. Refused up front, with nothing registered, when the event buffer is full.
   */
  public Future<RegistrationAnswer> register(List<Component> components) {
    return registrations.register(components);
  }

  /** Releases a region for a local worker; fails when the node holds no such region. */
  public Future<RegistrationAnswer> deregister(String regionId) {
    return registrations.deregister(regionId);
  }

  /** The port of the local registration API, -1 when it has none. */
  public int httpPort() {
    return httpPort;
  }

  /** This incarnation's epoch. */
  public long epoch() {
    return config.epoch();
  }

  /** What each backend of this node can do. */
  public List<BackendCapability> capabilities() {
    return dataPlane.capabilities();
  }

  /** Whether the agent is stopping: it refuses new orders and finishes the transfers it runs. */
  public boolean draining() {
    return runner != null && runner.leaving();
  }

  /** The node this agent serves. */
  public String nodeId() {
    return config.nodeId();
  }

  /**
   * Failure injection for drills and tests: the agent goes silent as a killed process would — no
   * heartbeats, no answers to orders, no goodbye — and the fleet must notice by itself.
   */
  public void crash() {
    context.runOnContext(v -> {
      crashed = true;
      vertx.cancelTimer(heartbeatTimer);
      if (orders != null) {
        orders.unregister();
        landings.unregister();
      }
    });
  }

  private Future<Void> leave(String reason) {
    return outcomes.publish(new PeerLeft(config.nodeId(), config.epoch(), reason), config.nodeId());
  }

  private void heartbeat() {
    outcomes.publish(new PeerHeartbeat(config.nodeId(), config.epoch(), config.lease().toMillis()), config.nodeId());
  }
}
