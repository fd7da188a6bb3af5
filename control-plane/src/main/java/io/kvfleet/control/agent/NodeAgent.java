package io.kvfleet.control.agent;

import io.kvfleet.control.Json;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegistrationDecision;
import io.kvfleet.events.TransferFailed;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import java.util.ArrayList;
import java.util.List;

/**
 * One node's agent: joins the fleet with a new epoch, registers the node's buffers, heartbeats,
 * and runs the transfers the coordinator dispatches to it. Native work runs on worker threads;
 * the event loop only publishes outcomes. Every dispatched transfer gets one terminal event.
 */
public final class NodeAgent extends VerticleBase {
  private final AgentConfig config;
  private final DataPlane dataPlane;
  private final EventPublisher publisher;
  private long heartbeatTimer = -1;
  private MessageConsumer<String> orders;
  private boolean crashed;

  public NodeAgent(AgentConfig config, DataPlane dataPlane, EventPublisher publisher) {
    this.config = config;
    this.dataPlane = dataPlane;
    this.publisher = publisher;
  }

  /** The EventBus address an agent takes its transfer orders on. */
  public static String address(String nodeId) {
    return "kvfleet.agent." + nodeId + ".transfers";
  }

  @Override
  public Future<?> start() {
    var joined = new PeerJoined(config.nodeId(), config.epoch(), config.host(),
        dataPlane.transportAddress(), dataPlane.capabilities());
    return publish(joined, config.nodeId())
        .compose(v -> registerRegions())
        .compose(v -> {
          orders = vertx.eventBus().consumer(address(config.nodeId()), this::onOrder);
          heartbeat(); // the lease starts now, not one period from now
          heartbeatTimer = vertx.setPeriodic(config.heartbeat().toMillis(), t -> heartbeat());
          return Future.succeededFuture();
        });
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(heartbeatTimer);
    return crashed ? Future.succeededFuture() : leave(ReasonCodes.SHUTDOWN);
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
    return vertx.executeBlocking(this::registerAll)
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

  private List<FleetEvent> registerAll() {
    List<FleetEvent> all = new ArrayList<>();
    for (Component component : config.components()) {
      List<FleetEvent> outcomes = new ArrayList<>();
      for (var region : component.regions()) {
        outcomes.addAll(dataPlane.register(config.nodeId(), config.epoch(), region));
      }
      all.addAll(outcomes);
      config.policy().decide(config.nodeId(), config.epoch(), component, outcomes).ifPresent(all::add);
    }
    return all;
  }

  private void heartbeat() {
    publish(new PeerHeartbeat(config.nodeId(), config.epoch(), config.lease().toMillis()), config.nodeId());
  }

  private void onOrder(Message<String> message) {
    TransferOrder order = Json.read(message.body(), TransferOrder.class);
    var request = order.request();
    vertx.executeBlocking(() -> dataPlane.transfer(order), false)
        .recover(error -> Future.succeededFuture(new TransferFailed(request.transferId(),
            request.sourceNode(), ReasonCodes.TRANSPORT_ERROR, 0, String.valueOf(error.getMessage()))))
        .compose(outcome -> publish(outcome, request.transferId()).map(outcome))
        .onComplete(done -> message.reply(done.succeeded() ? done.result().wireType() : "unpublished"));
  }

  private Future<Void> publish(FleetEvent event, String correlationId) {
    return Future.fromCompletionStage(publisher.publish(event, correlationId), context).mapEmpty();
  }
}
