package io.kvfleet.control.agent;

import io.kvfleet.control.Json;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegistrationDecision;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.control.KvfleetException;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's agent: joins the fleet with a new epoch, registers the node's buffers, heartbeats,
 * and runs the transfers the coordinator dispatches to it. Native work runs on worker threads;
 * the event loop only publishes outcomes. Every dispatched transfer gets one terminal event.
 *
 * <p>Stopping drains: the agent refuses new orders ({@code PEER_LEFT}, with why), finishes and
 * reports the transfers it is running (for at most {@link #STOP_DRAIN} or {@link #withStopDrain},
 * heartbeating meanwhile), then leaves the fleet. A crashed agent does none of this.
 */
public final class NodeAgent extends VerticleBase {
  private static final Logger LOG = LoggerFactory.getLogger(NodeAgent.class);

  private final AgentConfig config;
  private final DataPlane dataPlane;
  private final EventPublisher publisher;
  /** How long a worker's registration waits for Kafka before it is answered as pending. */
  static final Duration DURABLE_WAIT = Duration.ofSeconds(5);
  /** How often an outcome the full event buffer refused is offered again. */
  static final Duration OUTCOME_RETRY = Duration.ofSeconds(1);

  private long heartbeatTimer = -1;
  private MessageConsumer<String> orders;
  private MessageConsumer<String> landings;
  /** Lands staged chunks one at a time (one landing buffer), apart from the transfer worker. */
  private WorkerExecutor lander;
  private volatile int httpPort = -1;
  /**
   * The requests this incarnation has run (transfer id and request record): an order sent twice (a
   * retry, a new coordinator) runs once; the last 100,000 are remembered.
   */
  private final java.util.Set<String> ordersTaken = java.util.Collections.newSetFromMap(
      new java.util.LinkedHashMap<String, Boolean>() {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<String, Boolean> eldest) {
          return size() > 100_000;
        }
      });
  private boolean crashed;
  /** Stopping: new orders are refused. */
  private volatile boolean leaving;
  /** The transfers running now, until their outcome is published. */
  private final java.util.Set<Future<?>> running = new java.util.HashSet<>();
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

  /** The EventBus address an agent takes its transfer orders on. */
  public static String address(String nodeId) {
    return "kvfleet.agent." + nodeId + ".transfers";
  }

  /** The EventBus address an agent takes staged chunks to land on. */
  public static String landingAddress(String nodeId) {
    return "kvfleet.agent." + nodeId + ".landings";
  }

  /** How long a source waits for a destination to land one staged chunk. */
  static final Duration LANDING_TIMEOUT = Duration.ofSeconds(30);
  private static final String LANDED = "landed";

  @Override
  public Future<?> start() {
    var joined = new PeerJoined(config.nodeId(), config.epoch(), config.host(),
        dataPlane.transportAddress(), dataPlane.capabilities());
    return publish(joined, config.nodeId())
        .compose(v -> registerRegions())
        .compose(v -> {
          orders = vertx.eventBus().consumer(address(config.nodeId()), this::onOrder);
          lander = vertx.createSharedWorkerExecutor("kvfleet-landing-" + config.nodeId(), 1);
          landings = vertx.eventBus().consumer(landingAddress(config.nodeId()), this::onLanding);
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
    leaving = true;
    return Future.join(List.copyOf(running))
        .timeout(stopDrain.toMillis(), TimeUnit.MILLISECONDS)
        .otherwiseEmpty()
        .compose(drained -> {
          vertx.cancelTimer(heartbeatTimer);
          if (lander != null) {
            lander.close();
          }
          return leave(ReasonCodes.SHUTDOWN);
        });
  }

  /**
   * Registers buffers for a local worker: one outcome per region and backend, the policy's
   * decisions, all published; answers once Kafka has them, or after {@code DURABLE_WAIT} with the
   * events marked pending. Refused up front, with nothing registered, when the event buffer is full.
   */
  public Future<RegistrationAnswer> register(List<Component> components) {
    int expected = components.stream().mapToInt(c -> c.regions().size()).sum() * 4;
    if (publisher.waiting() + expected > publisher.capacity()) {
      return Future.failedFuture(KvfleetException.bufferFull(config.nodeId(), publisher.capacity()));
    }
    String batch = config.nodeId() + "@" + config.epoch() + "/" + System.nanoTime();
    return vertx.executeBlocking(() -> registerAll(components), true)
        .compose(outcomes -> answer(outcomes, batch));
  }

  /**
   * Registers a served model's buffers like {@link #register}, then declares its layout: the
   * layout event follows the registration outcomes on the node's key, so Kafka keeps them in order.
   */
  public Future<RegistrationAnswer> declare(ServedModel model) {
    var components = model.buffers();
    int expected = components.stream().mapToInt(c -> c.regions().size()).sum() * 4 + 1;
    if (publisher.waiting() + expected > publisher.capacity()) {
      return Future.failedFuture(KvfleetException.bufferFull(config.nodeId(), publisher.capacity()));
    }
    String batch = config.nodeId() + "@" + config.epoch() + "/layout/" + System.nanoTime();
    FleetEvent layout = model.declaration(config.nodeId(), config.epoch());
    return vertx.executeBlocking(() -> registerAll(components), true)
        .compose(outcomes -> answer(java.util.stream.Stream.concat(outcomes.stream(),
            java.util.stream.Stream.of(layout)).toList(), batch));
  }

  /** Releases a region for a local worker; fails when the node holds no such region. */
  public Future<RegistrationAnswer> deregister(String regionId) {
    return vertx.executeBlocking(() -> dataPlane.deregister(config.nodeId(), config.epoch(), regionId), true)
        .compose(events -> events.isEmpty()
            ? Future.failedFuture(KvfleetException.badInput("no region " + regionId + " on " + config.nodeId()))
            : answer(events, regionId));
  }

  private Future<RegistrationAnswer> answer(List<FleetEvent> outcomes, String correlationId) {
    var published = Future.all(outcomes.stream().map(e -> publishOutcome(e, correlationId)).toList());
    return published.timeout(DURABLE_WAIT.toMillis(), TimeUnit.MILLISECONDS)
        .map(done -> RegistrationAnswer.of(outcomes, true, publisher.waiting()))
        .recover(slow -> Future.succeededFuture(RegistrationAnswer.of(outcomes, false, publisher.waiting())));
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
  public List<io.kvfleet.events.BackendCapability> capabilities() {
    return dataPlane.capabilities();
  }

  /** Whether the agent is stopping: it refuses new orders and finishes the transfers it runs. */
  public boolean draining() {
    return leaving;
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
    return publish(new PeerLeft(config.nodeId(), config.epoch(), reason), config.nodeId());
  }

  /**
   * Registers every component's buffers and publishes one outcome per region and backend, then
   * the policy's decision for any component that did not register. Under {@code FAIL_NODE} a
   * failed component fails the start, after the diagnosis is on record.
   */
  private Future<Void> registerRegions() {
    String batch = config.nodeId() + "@" + config.epoch() + "/start";
    return vertx.executeBlocking(() -> registerAll(config.components()), true)
        .compose(outcomes -> Future.all(outcomes.stream().map(e -> publish(e, batch)).toList())
            .map(outcomes))
        .compose(outcomes -> {
          boolean stop = config.policy().stopsNode()
              && outcomes.stream().anyMatch(e -> e instanceof RegistrationDecision);
          return stop ? leave(ReasonCodes.REGISTRATION_FAILED).compose(v -> Future.failedFuture(
              config.nodeId() + " stops: a component failed to register under policy FAIL_NODE"))
              : Future.succeededFuture();
        });
  }

  private List<FleetEvent> registerAll(List<Component> components) {
    List<FleetEvent> all = new ArrayList<>();
    for (Component component : components) {
      List<FleetEvent> outcomes = new ArrayList<>();
      var regions = component.regions();
      for (int i = 0; i < regions.size(); i++) {
        outcomes.addAll(dataPlane.register(config.nodeId(), config.epoch(), regions.get(i), component.handle(i)));
      }
      all.addAll(outcomes);
      config.policy().decide(config.nodeId(), config.epoch(), component, outcomes).ifPresent(all::add);
      if (config.policy() == RegistrationPolicy.FALLBACK_STAGED && component.memoryType() == MemoryType.VRAM) {
        for (var region : RegistrationPolicy.unreachable(component, outcomes, dataPlane::reachesOtherHosts)) {
          all.addAll(dataPlane.stage(config.nodeId(), config.epoch(), region));
        }
      }
    }
    return all;
  }

  private void heartbeat() {
    publish(new PeerHeartbeat(config.nodeId(), config.epoch(), config.lease().toMillis()), config.nodeId());
  }

  private void onOrder(Message<String> message) {
    TransferOrder order = read(message, TransferOrder.class, "transfer order");
    if (order == null) {
      return;
    }
    var request = order.request();
    if (!ordersTaken.add(request.transferId() + "/" + order.requestEventId())) {
      message.reply("duplicate order for " + request.transferId() + ": it ran once already");
      return;
    }
    Future<FleetEvent> outcome = leaving
        ? Future.succeededFuture(new TransferFailed(request.transferId(), request.sourceNode(), ReasonCodes.PEER_LEFT,
            0, config.nodeId() + " epoch " + config.epoch() + " is shutting down and takes no new transfers"))
        : vertx.executeBlocking(() -> startInTime(order), true)
            .recover(error -> Future.succeededFuture(new TransferFailed(request.transferId(),
                request.sourceNode(), ReasonCodes.TRANSPORT_ERROR, 0, String.valueOf(error.getMessage()))));
    Future<FleetEvent> reported = outcome.compose(event -> publishOutcome(event, request.transferId()).map(event));
    running.add(reported);
    reported.onComplete(done -> {
      running.remove(reported);
      message.reply(done.succeeded() ? done.result().wireType() : "unpublished");
    });
  }

  /**
   * Runs an order unless its deadline passed while it waited behind other work on this node: the
   * coordinator has timed it out by then, and the router may have given its pages to another
   * request, so it fails {@code DEADLINE_PASSED} without moving a byte.
   */
  private FleetEvent startInTime(TransferOrder order) {
    var request = order.request();
    if (request.deadlineMillis() < System.currentTimeMillis()) {
      return new TransferFailed(request.transferId(), request.sourceNode(), ReasonCodes.DEADLINE_PASSED, 0,
          "its deadline " + java.time.Instant.ofEpochMilli(request.deadlineMillis()) + " passed before "
              + config.nodeId() + " could start it (it waited behind other transfers); not run");
    }
    return dataPlane.transfer(order, this::landElsewhere);
  }

  /** The destination's half of a staged chunk, on the landing thread; answers {@code landed} or why not. */
  private void onLanding(Message<String> message) {
    StagedChunk chunk = read(message, StagedChunk.class, "staged chunk");
    if (chunk == null) {
      return;
    }
    lander.executeBlocking(() -> dataPlane.land(chunk), true)
        .onComplete(done -> message.reply(done.failed()
            ? Json.write(new Landings.Refused(ReasonCodes.TRANSPORT_ERROR, 0, String.valueOf(done.cause().getMessage())))
            : done.result().map(Json::write).orElse(LANDED)));
  }

  /** The message's body as a {@code type}, or null once the message has been failed with why it is unreadable. */
  private static <T> T read(Message<String> message, Class<T> type, String what) {
    try {
      return Json.read(message.body(), type);
    } catch (KvfleetException e) {
      message.fail(400, "unreadable " + what + ": " + e.getMessage());
      return null;
    }
  }

  /** Asks another agent to land a chunk and waits for it (on the transfer worker, never the event loop). */
  private Optional<Landings.Refused> landElsewhere(String node, StagedChunk chunk) {
    try {
      String answer = vertx.eventBus()
          .<String>request(landingAddress(node), Json.write(chunk),
              new DeliveryOptions().setSendTimeout(LANDING_TIMEOUT.toMillis()))
          .toCompletionStage().toCompletableFuture()
          .get(LANDING_TIMEOUT.toMillis() + 1_000, TimeUnit.MILLISECONDS)
          .body();
      return LANDED.equals(answer) ? Optional.empty() : Optional.of(Json.read(answer, Landings.Refused.class));
    } catch (ExecutionException | TimeoutException e) {
      Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
      return Optional.of(new Landings.Refused(ReasonCodes.TRANSPORT_ERROR, 0,
          node + "'s agent did not land the chunk: " + cause.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of(new Landings.Refused(ReasonCodes.TRANSPORT_ERROR, 0, "interrupted while " + node + " landed"));
    }
  }

  private Future<Void> publish(FleetEvent event, String correlationId) {
    return Future.fromCompletionStage(publisher.publish(event, correlationId), context).mapEmpty();
  }

  /**
   * Publishes an outcome (of a registration or a transfer), which must reach the log: when the
   * publisher's buffer is full (Kafka has been away a while) it is offered again every {@code
   * OUTCOME_RETRY} until Kafka takes it, unless the agent crashed.
   */
  private Future<Void> publishOutcome(FleetEvent event, String correlationId) {
    return publishOutcome(event, correlationId, true);
  }

  private Future<Void> publishOutcome(FleetEvent event, String correlationId, boolean firstTry) {
    return publish(event, correlationId).recover(refused -> {
      boolean bufferFull = refused instanceof KvfleetException || refused.getCause() instanceof KvfleetException;
      if (crashed || !bufferFull) {
        return Future.failedFuture(refused);
      }
      if (firstTry) {
        LOG.warn("{} {} waits, offered again every {}: {}", event.wireType(), event.subject(), OUTCOME_RETRY,
            refused.getMessage());
      }
      Promise<Void> later = Promise.promise();
      vertx.setTimer(OUTCOME_RETRY.toMillis(), t -> publishOutcome(event, correlationId, false).onComplete(later));
      return later.future();
    });
  }
}
