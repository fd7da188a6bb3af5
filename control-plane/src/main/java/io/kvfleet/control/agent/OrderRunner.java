package io.kvfleet.control.agent;

import io.kvfleet.control.dataplane.DataPlane;
import io.kvfleet.control.protocol.Landings;
import io.kvfleet.control.protocol.OrderReply;
import io.kvfleet.control.protocol.TransferOrder;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.TransferFailed;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import java.time.Duration;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Runs the transfer orders the coordinator sends an agent, each once however often it comes, on
 * worker threads; publishes each one's terminal event and answers the order with an {@link
 * OrderReply}. Once the agent stops, new orders fail {@code PEER_LEFT} without running.
 */
final class OrderRunner {
  private final Vertx vertx;
  private final AgentConfig config;
  private final DataPlane dataPlane;
  private final OutcomePublisher outcomes;
  private final Landings landings;
  /**
   * The requests this incarnation has run (transfer id and request record): an order sent twice (a
   * retry, a new coordinator) runs once; the last 100,000 are remembered.
   */
  private final Set<String> ordersTaken = Collections.newSetFromMap(
      new LinkedHashMap<String, Boolean>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
          return size() > 100_000;
        }
      });
  /** Stopping: new orders are refused. */
  private volatile boolean leaving;
  /** The transfers running now, until their outcome is published. */
  private final Set<Future<?>> running = new HashSet<>();

  OrderRunner(Vertx vertx, AgentConfig config, DataPlane dataPlane, OutcomePublisher outcomes, Landings landings) {
    this.vertx = vertx;
    this.config = config;
    this.dataPlane = dataPlane;
    this.outcomes = outcomes;
    this.landings = landings;
  }

  /** Whether new orders are refused: the agent is stopping. */
  boolean leaving() {
    return leaving;
  }

  /** Refuses new orders from now on; completes when the running ones reported or {@code drain} passed. */
  Future<?> drain(Duration drain) {
    leaving = true;
    return Future.join(List.copyOf(running))
        .timeout(drain.toMillis(), TimeUnit.MILLISECONDS)
        .otherwiseEmpty();
  }

  void onOrder(Message<Object> message) {
    if (!(message.body() instanceof TransferOrder order)) {
      message.fail(400, "unreadable transfer order: expected a " + TransferOrder.class.getSimpleName() + ", got "
          + (message.body() == null ? "nothing" : message.body().getClass().getSimpleName()));
      return;
    }
    var request = order.request();
    if (!ordersTaken.add(request.transferId() + "/" + order.requestEventId())) {
      message.reply(OrderReply.duplicate(request.transferId()));
      return;
    }
    Future<FleetEvent> outcome = leaving
        ? Future.succeededFuture(new TransferFailed(request.transferId(), request.sourceNode(), ReasonCodes.PEER_LEFT,
            0, config.nodeId() + " epoch " + config.epoch() + " is shutting down and takes no new transfers"))
        : vertx.executeBlocking(() -> startInTime(order), true)
            .recover(error -> Future.succeededFuture(new TransferFailed(request.transferId(),
                request.sourceNode(), ReasonCodes.TRANSPORT_ERROR, 0, String.valueOf(error.getMessage()))));
    Future<FleetEvent> reported = outcome.compose(event ->
        outcomes.publishOutcome(event, request.transferId()).map(event));
    running.add(reported);
    reported.onComplete(done -> {
      running.remove(reported);
      message.reply(done.succeeded() ? OrderReply.ran(request.transferId(), done.result().wireType())
          : OrderReply.unpublished(request.transferId(), String.valueOf(done.cause().getMessage())));
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
    return dataPlane.transfer(order, landings);
  }
}
