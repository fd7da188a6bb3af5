package io.kvfleet.control.agent;

import io.kvfleet.control.dataplane.DataPlane;
import io.kvfleet.control.protocol.Landings;
import io.kvfleet.control.protocol.TransferOrder;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferFailed;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the transfer orders the log says the coordinator dispatched to this incarnation ({@link
 * OrderLog}, {@link OrderCheck}), each once however often it comes, on worker threads, and
 * publishes each one's terminal event. Once the agent stops, new orders fail {@code PEER_LEFT}
 * without running. An order that comes any other way, or that the check refuses, is reported and
 * ends nothing.
 *
 * <p>Orders to one destination incarnation run one after another, in the order they came; orders
 * to different destinations run side by side, so a destination that died holds up only its own
 * queue (and each of its transfers only until that transfer's deadline). No order starts unless
 * this incarnation can prove its lease ({@link Lease}) and the order names its epoch, and no
 * completion is reported unless every page provably landed inside the lease and before the deadline
 * ({@link LeaseFence}): a page that may have landed after the fleet was told the transfer failed is
 * reported as such ({@code LANDED_AFTER_LEASE}), never as completed.
 */
final class OrderRunner {
  private static final Logger LOG = LoggerFactory.getLogger(OrderRunner.class);
  private final Vertx vertx;
  private final AgentConfig config;
  private final DataPlane dataPlane;
  private final OutcomePublisher outcomes;
  private final Landings landings;
  private final Lease lease;
  /** Orders refused, by reason code (read by the metrics' thread). */
  private final Map<String, Long> refusals;
  private final io.kvfleet.control.LogSampling refusalsLogged = new io.kvfleet.control.LogSampling();
  private final io.kvfleet.control.LogSampling againLogged = new io.kvfleet.control.LogSampling();
  /** Per destination node and epoch, the last order queued: the next one runs after it. */
  private final Map<String, Future<?>> queues = new HashMap<>();
  /** The requests the node has run, kept by the agent over its incarnations: an order runs once. */
  private final Set<String> ordersTaken;
  /** What the agent read in the log that the fleet ended: such an order does not start, nor a page after it. */
  private final FleetEndings endings;
  /** Why new orders are refused (stopping, or fenced): null while orders are taken. */
  private volatile Refusal refusal;

  private record Refusal(String reason, String detail) {}
  /** The transfers running now, until their outcome is published. */
  private final Set<Future<?>> running = new HashSet<>();

  OrderRunner(Vertx vertx, AgentConfig config, DataPlane dataPlane, OutcomePublisher outcomes, Landings landings,
      Lease lease, Set<String> ordersTaken, Map<String, Long> refusals, FleetEndings endings) {
    this.ordersTaken = ordersTaken;
    this.endings = endings;
    this.refusals = refusals;
    this.vertx = vertx;
    this.config = config;
    this.dataPlane = dataPlane;
    this.outcomes = outcomes;
    this.landings = landings;
    this.lease = lease;
  }

  /** A count of refusals by reason that the metrics' thread may read, kept by the agent over its incarnations. */
  static Map<String, Long> refusalCounts() {
    return new ConcurrentHashMap<>();
  }

  /** A set that remembers the newest 100,000 requests run (transfer id and request record), for {@link #onDispatch}. */
  static Set<String> remembered() {
    return Collections.newSetFromMap(new LinkedHashMap<String, Boolean>() {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
        return size() > 100_000;
      }
    });
  }

  /** Whether new orders are refused: the agent is stopping, or this incarnation was fenced. */
  boolean leaving() {
    return refusal != null;
  }

  /** Refuses new orders from now on; completes when the running ones reported or {@code drain} passed. */
  Future<?> drain(Duration drain) {
    return drain(drain, ReasonCodes.PEER_LEFT, config.nodeId() + " epoch " + config.epoch()
        + " is shutting down and takes no new transfers");
  }

  /** {@link #drain(Duration)}, refusing new orders with {@code reason} and {@code detail}. */
  Future<?> drain(Duration drain, String reason, String detail) {
    if (refusal == null) {
      refusal = new Refusal(reason, detail);
    }
    return Future.join(List.copyOf(running))
        .timeout(drain.toMillis(), TimeUnit.MILLISECONDS)
        .otherwiseEmpty();
  }

  /**
   * Runs the order of a dispatch read from the log, unless {@link OrderCheck} refuses it: then it
   * is reported (a WARN, {@link #refusals}) and nothing is published for the transfer it names.
   */
  void onDispatch(TransferDispatched dispatch) {
    var refused = OrderCheck.refusal(dispatch, config.nodeId(), config.epoch(), config.signing().trust());
    if (refused.isPresent()) {
      refuse(refused.get().reason(), refused.get().detail());
      return;
    }
    run(TransferOrder.of(dispatch.order()));
  }

  /** An order that came over the EventBus: refused and reported, since orders come only from the log. */
  void onBusOrder(Message<Object> message) {
    String named = message.body() instanceof TransferOrder o ? " for " + o.request().transferId() : "";
    refuse(ReasonCodes.ORDER_NOT_FROM_LOG, "an order" + named + " came over the EventBus; "
        + config.nodeId() + " runs only what the log says was dispatched");
    message.fail(403, ReasonCodes.ORDER_NOT_FROM_LOG + ": orders are taken only from the log");
  }

  /** How many orders were refused, by reason code. */
  Map<String, Long> refusals() {
    return Map.copyOf(refusals);
  }

  private void refuse(String reason, String detail) {
    refusals.merge(reason, 1L, Long::sum);
    if (refusalsLogged.next()) { // each is counted by reason (the agent's /metrics)
      LOG.warn("refused an order ({}): {}{}", reason, detail, refusalsLogged.note());
    }
  }

  private void run(TransferOrder order) {
    var request = order.request();
    if (!ordersTaken.add(request.transferId() + "/" + order.requestEventId())) {
      if (againLogged.next()) {
        LOG.info("{} did not run the order for {} again (request record {}){}", config.nodeId(), request.transferId(),
            order.requestEventId(), againLogged.note());
      }
      return;
    }
    Refusal refused = refusal;
    Future<FleetEvent> outcome = refused != null
        ? Future.succeededFuture(new TransferFailed(request.transferId(), request.sourceNode(), refused.reason(),
            0, refused.detail()))
        : queued(order).recover(error -> Future.succeededFuture(new TransferFailed(request.transferId(),
            request.sourceNode(), ReasonCodes.TRANSPORT_ERROR, 0, String.valueOf(error.getMessage()))));
    Future<FleetEvent> reported = outcome.compose(event ->
        outcomes.publishOutcome(event, request.transferId()).map(event));
    running.add(reported);
    reported.onComplete(done -> {
      running.remove(reported);
      if (done.failed()) {
        LOG.warn("{} ran {} but Kafka did not take its outcome ({}); its deadline ends it", config.nodeId(),
            request.transferId(), done.cause().getMessage());
      }
    });
  }

  /** Runs {@code order} on a worker once the orders before it to the same destination incarnation have ended. */
  private Future<FleetEvent> queued(TransferOrder order) {
    var request = order.request();
    String queue = request.destinationNode() + "@" + request.destinationEpoch();
    Future<?> before = queues.getOrDefault(queue, Future.succeededFuture());
    Future<FleetEvent> run = before.transform(done -> vertx.executeBlocking(() -> startInTime(order), false));
    queues.put(queue, run);
    run.onComplete(done -> queues.remove(queue, run));
    return run;
  }

  /**
   * Runs an order unless the log already ended its transfer (a coordinator failed, timed out or
   * rejected it: one that lost its partition and had not learnt it yet, say), this incarnation
   * cannot prove its lease, the order names another epoch of this node, or its deadline passed while
   * it waited behind other work here: the coordinator may have failed it or timed it out by then,
   * and the router may have given its pages to another request, so it fails without moving a byte.
   */
  private FleetEvent startInTime(TransferOrder order) {
    var request = order.request();
    Refusal refused = refusal;
    if (refused != null) {
      return new TransferFailed(request.transferId(), request.sourceNode(), refused.reason(), 0,
          refused.detail() + "; not run");
    }
    if (request.sourceEpoch() != config.epoch()) {
      return new TransferFailed(request.transferId(), request.sourceNode(), ReasonCodes.STALE_EPOCH, 0,
          "it names " + config.nodeId() + " epoch " + request.sourceEpoch() + ", which is not this incarnation ("
              + config.epoch() + "); not run");
    }
    if (!lease.current()) {
      return new TransferFailed(request.transferId(), request.sourceNode(), ReasonCodes.LEASE_UNPROVEN, 0,
          config.nodeId() + " epoch " + config.epoch() + " cannot prove its lease (no heartbeat acknowledged by"
              + " Kafka within it" + (lease.lapsed() ? ", lapsed " + lease.lapsedFor().toMillis() + " ms ago" : "")
              + "): the fleet may have declared it lost; not run");
    }
    if (request.deadlineMillis() < System.currentTimeMillis()) {
      return new TransferFailed(request.transferId(), request.sourceNode(), ReasonCodes.DEADLINE_PASSED, 0,
          "its deadline " + java.time.Instant.ofEpochMilli(request.deadlineMillis()) + " passed before "
              + config.nodeId() + " could start it (it waited behind other transfers); not run");
    }
    var ended = endings.of(request.transferId(), order.requestEventId()); // after the agent's own reasons
    if (ended.isPresent()) {
      return io.kvfleet.control.dataplane.LandedLate.endedByFleet(request, 0, ended.get(), "not run");
    }
    return dataPlane.transfer(order, landings,
        new LeaseFence(lease, System::currentTimeMillis, () -> endings.of(request.transferId(), order.requestEventId())));
  }
}
