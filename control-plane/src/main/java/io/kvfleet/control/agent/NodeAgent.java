package io.kvfleet.control.agent;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.StartupMarks;
import io.kvfleet.control.dataplane.DataPlane;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.control.ops.HttpLimits;
import io.kvfleet.control.protocol.Addresses;
import io.kvfleet.control.protocol.Protocol;
import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.ReasonCodes;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's agent: joins the fleet with a new epoch, registers the node's buffers, heartbeats,
 * and runs the transfers the coordinator dispatches to it. Native work runs on worker threads;
 * the event loop only publishes outcomes. Every dispatched transfer gets one terminal event.
 * Orchestration only: its jobs are {@link Registrations}, {@link OrderRunner}, {@link LandingDesk}
 * and {@link OutcomePublisher}, one set per incarnation.
 *
 * <p>Fencing: an incarnation starts work only while it can prove its lease ({@link Lease}, from
 * Kafka's acknowledgements of its heartbeats). When the proof lapses (a pause, a long Kafka outage)
 * or the agent reads its own {@code peer.lost} ({@link OwnLossWatch}), the fleet may consider that
 * epoch dead: the agent fails what it holds without running it, says goodbye for the old epoch,
 * and joins again by itself with a new epoch and the same buffers.
 *
 * <p>Stopping drains: the agent refuses new orders ({@code PEER_LEFT}, with why), finishes and
 * reports the transfers it is running (for at most {@link #STOP_DRAIN} or {@link #withStopDrain},
 * heartbeating meanwhile), then leaves the fleet. A crashed agent does none of this.
 */
public final class NodeAgent extends VerticleBase {
  private static final Logger LOG = LoggerFactory.getLogger(NodeAgent.class);
  /** The local API closes a connection silent this long (a worker's calls are short; it reconnects). */
  private static final int API_IDLE_SECONDS = 30;

  private final DataPlane dataPlane;
  /** The current incarnation's configuration and publisher; the first publisher is the caller's to close. */
  private volatile AgentConfig config;
  private EventPublisher publisher;
  /** Publishers of later incarnations, which this agent made and closes. */
  private final List<EventPublisher> made = new ArrayList<>();
  /** The endings of this node's transfers read in its order partition, over its incarnations. */
  private final FleetEndings endings = new FleetEndings();

  private long heartbeatTimer = -1;
  private long fenceTimer = -1;
  /** Refuses orders sent over the EventBus (orders come from {@link #orderLog}), so they are reported. */
  private MessageConsumer<Object> orders;
  private OrderLog orderLog;
  /** Orders refused, by reason code, over all incarnations. */
  private final java.util.Map<String, Long> refusals = OrderRunner.refusalCounts();
  private final java.util.Map<String, Long> refusalsSeen = java.util.Collections.unmodifiableMap(refusals);
  private MessageConsumer<Object> landings;
  private volatile OutcomePublisher outcomes; // read by outcomesHeldBack() from other threads
  private Registrations registrations;
  private LandingDesk landingDesk;
  private OrderRunner runner;
  private Lease lease;
  private OwnLossWatch lossWatch;
  /** The epoch whose {@code peer.joined} was last sent: only it may say goodbye on stop. */
  private long joinSent = -1;
  /** The epoch whose {@code peer.left} was sent, and that send: an epoch leaves once ({@link #leave}). */
  private long leftSent = -1;
  private Future<Void> goodbye;
  private boolean rejoining;
  /** The join of another agent under this node id, once read: this agent then serves no more. */
  private volatile PeerJoined supersededBy;
  private final io.vertx.core.Promise<PeerJoined> superseded = io.vertx.core.Promise.promise();
  private final List<java.util.function.BiConsumer<Long, Long>> rejoined = new java.util.concurrent.CopyOnWriteArrayList<>();
  private volatile boolean stopping;
  /**
   * The requests this node has run (transfer id and request record), over all its incarnations: an
   * order sent twice (a retry, a new coordinator, after a rejoin) runs once; the last 100,000 are kept.
   */
  private final java.util.Set<String> ordersTaken = OrderRunner.remembered();
  /** What the node's registrations said, for each new incarnation to say again. */
  private final Reannounce said = new Reannounce();
  private volatile int httpPort = -1;
  private io.vertx.core.http.HttpServer api;
  /** Set once the first join (its registrations included) completed: worker calls before that are refused. */
  private volatile boolean serving;
  private volatile boolean crashed;
  /** How long a stopping agent waits for the transfers it runs to end before it leaves, by default. */
  public static final Duration STOP_DRAIN = Duration.ofSeconds(10);
  private java.util.function.Consumer<io.vertx.ext.web.Router> extraRoutes = router -> { };
  private java.util.function.Consumer<FleetEvent> outcomesTaken = event -> { };
  private volatile Duration stopDrain = STOP_DRAIN;
  /** The local API's bearer token: a new one, known only in this process, unless given. */
  private ApiCredential apiToken = ApiCredential.random();

  public NodeAgent(AgentConfig config, DataPlane dataPlane, EventPublisher publisher) {
    this.config = config;
    this.dataPlane = dataPlane;
    this.publisher = publisher;
  }

  /** Adds routes to the agent's local HTTP API (the ops package's {@code /metrics}); call before deploying. */
  public NodeAgent withRoutes(java.util.function.Consumer<io.vertx.ext.web.Router> routes) {
    this.extraRoutes = routes;
    return this;
  }

  /** Tells {@code taken} of each outcome (a registration's, a transfer's) Kafka took from it; call before deploying. */
  public NodeAgent withOutcomeWatch(java.util.function.Consumer<FleetEvent> taken) {
    this.outcomesTaken = java.util.Objects.requireNonNull(taken, "taken must not be null");
    return this;
  }

  java.util.function.Consumer<io.vertx.ext.web.Router> extraRoutes() {
    return extraRoutes;
  }

  /** Asks callers of the local API for {@code token} (kept in a {@link TokenFile}); call before deploying. */
  public NodeAgent withApiToken(ApiCredential token) {
    this.apiToken = java.util.Objects.requireNonNull(token, "token must not be null");
    return this;
  }

  /** The bearer token the local API asks for (for callers in this process). */
  public ApiCredential apiToken() {
    return apiToken;
  }

  /** Waits up to {@code drain} on stop for the transfers it runs to end; call before stopping. */
  public NodeAgent withStopDrain(Duration drain) {
    this.stopDrain = drain;
    return this;
  }

  /** How many orders this agent refused, by reason code ({@code ORDER_*}): a live, unmodifiable view. */
  public java.util.Map<String, Long> refusedOrders() {
    return refusalsSeen;
  }

  @Override
  public Future<?> start() {
    Protocol.install(vertx.eventBus());
    if (!config.signing().verifies()) {
      LOG.warn("ORDERS ARE NOT AUTHENTICATED: {} has no trust file (--trust), so it runs any order the log says"
          + " was dispatched to it at its epoch, whoever wrote it to Kafka", config.nodeId());
    }
    var ordersOpening = OrderLog.start(vertx, publisher.bootstrapServers(), config.nodeId(),
        io.kvfleet.events.trust.Verifier.of(config.signing()), endings, d -> {
          if (!crashed && runner != null) { // before the first join there is no epoch a dispatch can be for
            runner.onDispatch(d);
          }
        });
    // Both readers find their partitions and ends side by side: each is a few Kafka round trips.
    var watchOpening = watchOwnLoss();
    long began = StartupMarks.now();
    ordersOpening.onSuccess(log -> orderLog = log);
    watchOpening.onSuccess(watch -> lossWatch = watch);
    // The local API binds before the join: a start that cannot (its port taken) fails before it says anything to
    // the fleet, where its join would have made the agent already serving this node step aside. Calls before the
    // join are refused as "not joined yet".
    Future<?> listening = config.httpPort() < 0 ? Future.succeededFuture()
        : Future.succeededFuture().compose(v -> HttpLimits.server(vertx, API_IDLE_SECONDS, HttpLimits.MAX_CONNECTIONS,
            config.nodeId() + " agent API", AgentApi.router(vertx, this, apiToken)) // a throw fails the start
            .listen(config.httpPort(), "127.0.0.1").onSuccess(server -> {
              api = server;
              httpPort = server.actualPort();
            }));
    // join, not all: when one reader fails, the other may still be opening, and it must be closed too.
    return Future.join(ordersOpening, watchOpening, listening)
        .onSuccess(opened -> StartupMarks.span("kafka-readers", began))
        .compose(opened -> join(false, watchOpening))
        .onSuccess(joined -> {
          serving = true;
          StartupMarks.mark("peer-joined");
        })
        .<Void>map(v -> {
          orders = vertx.eventBus().consumer(Addresses.transfers(config.nodeId()), m -> runner.onBusOrder(m));
          landings = vertx.eventBus().consumer(Addresses.landings(config.nodeId()), m -> landingDesk.onLanding(m));
          return null;
        }).recover(this::startFailed);
  }

  /**
   * Undoes a start that failed part-way, since Vert.x calls no {@link #stop} for it: an epoch that
   * joined says goodbye, and the readers that opened are closed; then the start fails with {@code cause}.
   */
  private <T> Future<T> startFailed(Throwable cause) {
    stopping = true;
    vertx.cancelTimer(heartbeatTimer);
    vertx.cancelTimer(fenceTimer);
    if (landingDesk != null) {
      landingDesk.close();
    }
    return leave(ReasonCodes.SHUTDOWN).timeout(STOP_DRAIN.toMillis(), TimeUnit.MILLISECONDS)
        .transform(left -> closeReaders())
        .transform(closed -> api == null ? Future.succeededFuture() : api.close())
        .transform(closed -> Future.failedFuture(cause));
  }

  /** Closes this incarnation's loss reader and the order reader, whichever are open. */
  private Future<?> closeReaders() {
    return (lossWatch == null ? Future.succeededFuture() : lossWatch.close().timeout(5, TimeUnit.SECONDS).otherwiseEmpty())
        .transform(closed -> orderLog == null ? Future.succeededFuture()
            : orderLog.close().timeout(5, TimeUnit.SECONDS).otherwiseEmpty());
  }

  /** Starts reading this node's partition of the node topic for its own loss (a new reader each incarnation). */
  private Future<OwnLossWatch> watchOwnLoss() {
    return OwnLossWatch.start(vertx, publisher.bootstrapServers(), config.nodeId(),
        io.kvfleet.events.trust.Verifier.of(config.signing()), lostEpoch -> {
          if (lostEpoch == config.epoch()) {
            fence(ReasonCodes.PEER_LOST, "the fleet declared " + config.nodeId() + " epoch " + lostEpoch + " lost");
          }
        }, this::joinedElsewhere);
  }

  /**
   * Another agent joined under this node id (the watch reads this incarnation's own join too, and later
   * ones of this agent open their own watch): the newest join is the node's for the fleet, so this agent
   * stops serving for good. It fails what it holds, says goodbye for its epoch ({@code STALE_EPOCH}), stops
   * heartbeating and refuses its worker's calls (409); it does not join again, which would only take the
   * node back from the other, and so on. Two agents must not share a node id: the log says which did.
   */
  private void joinedElsewhere(PeerJoined other) {
    // Not a join the fleet would take over this one's (the fold takes only a higher epoch), nor this agent's own.
    if (other.epoch() <= config.epoch() || supersededBy != null || crashed || stopping) {
      return;
    }
    supersededBy = other;
    String why = "another agent joined as " + config.nodeId() + " (epoch " + other.epoch() + ", host " + other.host()
        + ") while this one serves epoch " + config.epoch() + ": two agents must not share a node id";
    LOG.error("{}; this one stops serving (fails what it holds, says goodbye) and does not join again: stop one of "
        + "them, or give it another --id", why);
    if (lease != null) {
      lease.revoke();
    }
    vertx.cancelTimer(heartbeatTimer);
    vertx.cancelTimer(fenceTimer);
    Future<?> drained = runner == null || rejoining ? Future.succeededFuture()
        : runner.drain(config.lease(), ReasonCodes.STALE_EPOCH, why);
    drained.compose(done -> leave(ReasonCodes.STALE_EPOCH).timeout(config.lease().toMillis(), TimeUnit.MILLISECONDS)
            .otherwiseEmpty())
        .onComplete(left -> superseded.tryComplete(other));
  }

  /** Calls {@code listener} with the old and the new epoch each time this agent joins again (the node process prints it). */
  public NodeAgent onRejoin(java.util.function.BiConsumer<Long, Long> listener) {
    rejoined.add(listener);
    return this;
  }

  /** Completes once another agent joined under this node id and this one stopped serving (see {@link #joinedElsewhere}). */
  public Future<PeerJoined> superseded() {
    return superseded.future();
  }

  /**
   * Joins with the current epoch: watches for its own loss ({@code watching}: that reader, being
   * opened), publishes the join (which proves the lease from when it was sent), registers the configured buffers or, joining {@code again}, says
   * at the new epoch what the registrations of the earlier incarnations said; then heartbeats.
   */
  private Future<Void> join(boolean again, Future<OwnLossWatch> watching) {
    var incarnationLease = new Lease(config.lease(), config.heartbeat());
    lease = incarnationLease;
    outcomes = new OutcomePublisher(vertx, context, publisher, () -> crashed, outcomesTaken);
    registrations = new Registrations(vertx, config, dataPlane, outcomes, this::leave, said);
    landingDesk = new LandingDesk(vertx, config.nodeId(), dataPlane);
    runner = new OrderRunner(vertx, config, dataPlane, outcomes, landingDesk, incarnationLease, ordersTaken, refusals,
        endings);
    long epoch = config.epoch();
    var joined = new PeerJoined(config.nodeId(), epoch, config.host(), dataPlane.transportAddress(),
        dataPlane.capabilities());
    return watching
        .compose(watch -> {
          lossWatch = watch;
          if (stopping) { // stopped while its loss reader opened: this epoch neither joins nor leaves
            return Future.failedFuture(KvfleetException.rejoining(config.nodeId()));
          }
          long sent = incarnationLease.now();
          joinSent = epoch;
          return outcomes.publish(joined, config.nodeId()).onSuccess(v -> incarnationLease.acknowledged(sent));
        })
        .compose(v -> again ? registrations.sayAgain() : registrations.registerRegions())
        .onSuccess(v -> {
          if (supersededBy != null) {
            return; // another agent took the node while this one joined: it serves no more
          }
          heartbeat(); // the lease starts now, not one period from now
          heartbeatTimer = vertx.setPeriodic(config.heartbeat().toMillis(), t -> heartbeat());
          fenceTimer = vertx.setPeriodic(config.heartbeat().toMillis(), t -> {
            if (incarnationLease.lapsed()) {
              fence(ReasonCodes.LEASE_UNPROVEN, config.nodeId() + " epoch " + config.epoch()
                  + " could not prove its lease for " + incarnationLease.lapsedFor().toMillis()
                  + " ms (no heartbeat acknowledged by Kafka): the fleet may have declared it lost");
            }
          });
        });
  }

  /**
   * This incarnation may be dead to the fleet: fail what it holds without running it, say goodbye
   * for its epoch, and join again with a new epoch and the same registrations.
   */
  private void fence(String reason, String why) {
    if (rejoining || crashed || stopping || supersededBy != null || runner.leaving()) {
      return;
    }
    rejoining = true;
    lease.revoke(); // a batch that is running stops at its next poll: the fleet may have failed it already
    LOG.warn("{}; it fails what it holds ({}) and joins again with a new epoch", why, reason);
    vertx.cancelTimer(heartbeatTimer);
    vertx.cancelTimer(fenceTimer);
    var oldLanding = landingDesk;
    var oldWatch = lossWatch;
    var oldConfig = config;
    runner.drain(config.lease(), reason, why)
        .compose(drained -> leave(ReasonCodes.LEASE_EXPIRED).timeout(oldConfig.lease().toMillis(), TimeUnit.MILLISECONDS)
            .otherwiseEmpty())
        .compose(left -> oldWatch.close().otherwiseEmpty())
        .onComplete(done -> {
          oldLanding.close();
          retire(publisher);
          joinAgain(oldConfig.epoch());
        });
  }

  /** Joins with an epoch after {@code after}; if that fails (Kafka still away), tries again a heartbeat later. */
  private void joinAgain(long after) {
    if (crashed || stopping || supersededBy != null) {
      rejoining = false;
      return;
    }
    long was = config.epoch();
    config = config.withEpoch(Math.max(AgentConfig.newEpoch(), after + 1));
    long next = config.epoch();
    // A new Kafka producer blocks while it is built (a SASL login, TLS key stores): on a worker.
    vertx.executeBlocking(() -> publisher.nextIncarnation(next), false).compose(nextPublisher -> {
      made.add(nextPublisher);
      if (crashed || stopping) { // stop() may have closed what it made already
        vertx.executeBlocking(java.util.concurrent.Executors.callable(nextPublisher::close));
        return Future.failedFuture(KvfleetException.rejoining(config.nodeId()));
      }
      publisher = nextPublisher;
      return join(true, watchOwnLoss());
    }).onComplete(done -> {
      if (done.succeeded() || crashed || stopping) {
        rejoining = false;
        if (done.succeeded() && supersededBy == null) {
          LOG.warn("{} joined again as epoch {} (was {})", config.nodeId(), config.epoch(), was);
          rejoined.forEach(listener -> listener.accept(was, config.epoch()));
        }
        return;
      }
      LOG.error("{} could not join again as epoch {}, trying again with a new epoch: {}", config.nodeId(),
          config.epoch(), done.cause().toString());
      vertx.cancelTimer(heartbeatTimer);
      vertx.cancelTimer(fenceTimer);
      if (lossWatch != null) {
        lossWatch.close();
      }
      landingDesk.close();
      retire(publisher);
      vertx.setTimer(config.heartbeat().toMillis(), t -> joinAgain(config.epoch()));
    });
  }

  /**
   * Closes a publisher this agent made for an incarnation it has left, once the outcomes that
   * incarnation still owes have had a while (a minute) to reach Kafka.
   */
  private void retire(EventPublisher old) {
    if (made.contains(old)) {
      vertx.setTimer(Duration.ofMinutes(1).toMillis(), t -> vertx.executeBlocking(() -> {
        old.close();
        return null;
      }).onComplete(closed -> made.remove(old)));
    }
  }

  @Override
  public Future<?> stop() {
    stopping = true;
    if (crashed) {
      return closeMade();
    }
    Future<?> drained = runner == null ? Future.succeededFuture() : runner.drain(stopDrain);
    return drained.compose(done -> {
      if (lease != null) {
        lease.revoke(); // what still runs after the drain may not report a completion after the goodbye
      }
      vertx.cancelTimer(heartbeatTimer);
      vertx.cancelTimer(fenceTimer);
      if (landingDesk != null) {
        landingDesk.close();
      }
      return leave(ReasonCodes.SHUTDOWN).timeout(STOP_DRAIN.toMillis(), TimeUnit.MILLISECONDS);
    }).transform(left -> closeReaders())
        .transform(closed -> closeMade());
  }

  /**
   * Closes the publishers this agent made, each on a worker of its own: a close waits up to 20 s for
   * what it still holds, which must neither stall the event loop nor add up one after another.
   */
  private Future<?> closeMade() {
    return Future.join(List.copyOf(made).stream()
        .map(old -> vertx.executeBlocking(java.util.concurrent.Executors.callable(old::close), false)).toList());
  }

  /** Why a worker's call is refused now: this agent serves no more (another joined as this node), or it is joining again. */
  private java.util.Optional<KvfleetException> refusal() {
    if (supersededBy != null) {
      return java.util.Optional.of(KvfleetException.superseded(config.nodeId(), config.epoch(), supersededBy.epoch(),
          supersededBy.host()));
    }
    if (stopping) {
      return java.util.Optional.of(KvfleetException.stopping(config.nodeId()));
    }
    if (!serving) {
      return java.util.Optional.of(KvfleetException.notJoinedYet(config.nodeId()));
    }
    return rejoining ? java.util.Optional.of(KvfleetException.rejoining(config.nodeId())) : java.util.Optional.empty();
  }

  /**
   * Registers buffers for a local worker: one outcome per region and backend, the policy's
   * decisions, all published; answers once Kafka has them, or after a few seconds with the events
   * marked pending. Refused up front, with nothing registered, when the event buffer is full.
   */
  public Future<RegistrationAnswer> register(List<Component> components) {
    return refusal().map(Future::<RegistrationAnswer>failedFuture).orElseGet(() -> registrations.register(components));
  }

  /**
   * Registers a served model's buffers like {@link #register}, then declares its layout: the
   * layout event follows the registration outcomes on the node's key, so Kafka keeps them in order.
   */
  public Future<RegistrationAnswer> declare(ServedModel model) {
    return refusal().map(Future::<RegistrationAnswer>failedFuture).orElseGet(() -> registrations.declare(model));
  }

  /** Releases a region for a local worker; fails when the node holds no such region. */
  public Future<RegistrationAnswer> deregister(String regionId) {
    return refusal().map(Future::<RegistrationAnswer>failedFuture).orElseGet(() -> registrations.deregister(regionId));
  }

  /** The port of the local registration API, -1 when it has none. */
  public int httpPort() {
    return httpPort;
  }

  /** Outcomes of the current incarnation that its full event buffer refused and that are still offered again. */
  public int outcomesHeldBack() {
    var current = outcomes;
    return current == null ? 0 : current.heldBack();
  }

  /** The current incarnation's epoch (a fenced agent joins again with a new one). */
  public long epoch() {
    return config.epoch();
  }

  /** What each backend of this node can do. */
  public List<BackendCapability> capabilities() {
    return dataPlane.capabilities();
  }

  /** Whether the agent is stopping: it refuses new orders and finishes the transfers it runs. */
  public boolean draining() {
    return runner != null && runner.leaving() && !rejoining;
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
      vertx.cancelTimer(fenceTimer);
      if (orders != null) {
        orders.unregister();
        landings.unregister();
      }
      if (lossWatch != null) {
        lossWatch.close();
      }
      if (orderLog != null) {
        orderLog.close();
      }
    });
  }

  /** For tests: fences this incarnation now, as reading its own {@code peer.lost} would. */
  void fenceNow(String why) {
    context.runOnContext(v -> fence(ReasonCodes.PEER_LOST, why));
  }

  /**
   * Says goodbye for the current epoch, at most once: a fence, a stop, a failed start and a failed
   * registration may each ask, and the ones after the first get the first one's answer. An epoch
   * whose join was not sent (stopped while joining again) says nothing: its departure would come
   * before, or without, its join.
   */
  private Future<Void> leave(String reason) {
    long epoch = config.epoch();
    if (joinSent != epoch) {
      return Future.succeededFuture();
    }
    if (leftSent != epoch) {
      leftSent = epoch;
      goodbye = outcomes.publish(new PeerLeft(config.nodeId(), epoch, reason), config.nodeId());
    }
    return goodbye;
  }

  private void heartbeat() {
    var incarnationLease = lease;
    long sent = incarnationLease.now();
    outcomes.publish(new PeerHeartbeat(config.nodeId(), config.epoch(), config.lease().toMillis()), config.nodeId())
        .onSuccess(v -> incarnationLease.acknowledged(sent));
  }
}
