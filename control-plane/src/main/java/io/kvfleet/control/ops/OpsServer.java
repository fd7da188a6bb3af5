package io.kvfleet.control.ops;

import io.kvfleet.control.coordinator.CoordinatorView;
import io.kvfleet.control.coordinator.FoldWatcher;
import io.kvfleet.events.snapshot.StateHash;
import io.kvfleet.events.replay.LogRecord;
import io.kvfleet.events.state.FleetState;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;

/**
 * The coordinator's ops side: it watches the fold (metrics, the newest records, the live stream)
 * and serves the HTTP API, the dashboard and {@code /metrics}. It runs on the coordinator's event
 * loop, so it reads the coordinator's state without locks.
 */
public final class OpsServer implements FoldWatcher {
  private final OpsOptions options;
  private final PrometheusMeterRegistry registry;
  private final FleetMetrics metrics;
  private final RecentRecords recent;
  /** A connection silent this long is closed (a client that stops half way through a request is not held). */
  private static final int IDLE_SECONDS = 60;
  /** How often an open event stream gets a comment line, well within {@link #IDLE_SECONDS}. */
  private static final long KEEP_ALIVE_MILLIS = 20_000;

  private final EventStream stream = new EventStream();
  private final Promise<Integer> listening = Promise.promise();
  private CoordinatorView view;
  private StateGauges stateGauges;
  private LogGauges logGauges;
  private HttpServer server;
  private io.vertx.core.Context context;

  public OpsServer(OpsOptions options, PrometheusMeterRegistry registry) {
    this.options = options;
    this.registry = registry;
    this.metrics = new FleetMetrics(registry);
    this.recent = new RecentRecords(options.keepRecords());
  }

  /** The port it listens on, once it does. */
  public Future<Integer> port() {
    return listening.future();
  }

  /**
   * The dashboard's address for the operator to open: with the token when it was made up here,
   * else with a placeholder (a configured token is not printed).
   */
  public String dashboardUrl(int port) {
    String base = "http://" + options.host() + ":" + port + "/?access_token=";
    return base + (options.token().generated() ? options.token().value() : "<the configured API token>");
  }

  /** The metrics folded so far (read them on the coordinator's event loop). */
  public FleetMetrics metrics() {
    return metrics;
  }

  @Override
  public Future<?> started(Vertx vertx, CoordinatorView coordinator) {
    this.view = coordinator;
    this.context = vertx.getOrCreateContext();
    this.stateGauges = new StateGauges(registry);
    this.logGauges = new LogGauges(registry, coordinator);
    vertx.setPeriodic(100, 2_000, t -> logGauges.refresh());
    vertx.setPeriodic(KEEP_ALIVE_MILLIS, t -> stream.keepAlive());
    var router = Router.router(vertx);
    router.get("/health").handler(ctx -> OpsHttp.json(ctx, 200, java.util.Map.of("status", "up")));
    router.get("/ready").handler(ctx -> {
      boolean ready = view.status().caughtUp();
      OpsHttp.json(ctx, ready ? 200 : 503, java.util.Map.of("ready", ready,
          "detail", ready ? "caught up with the log; deciding" : "reading the log up to its end first"));
    });
    if (options.protectMetrics()) {
      router.get("/metrics").handler(new TokenCheck(options.token()));
    }
    router.get("/metrics").handler(ctx -> {
      stateGauges.refresh(view.state());
      ctx.response().putHeader("content-type", "text/plain; version=0.0.4; charset=utf-8").end(registry.scrape());
    });
    Dashboard.mountAssets(router);
    router.route("/api/*").handler(new TokenCheck(options.token()));
    router.get("/").handler(new TokenCheck(options.token()));
    Dashboard.mountPage(router);
    new ApiRoutes(view, recent, new Summary(registry)).mount(router, stream);
    return HttpLimits.server(vertx, IDLE_SECONDS, HttpLimits.MAX_CONNECTIONS, "ops", router).listen(options.port(), options.host())
        .onSuccess(s -> {
          server = s;
          listening.tryComplete(s.actualPort());
        })
        .onFailure(listening::tryFail);
  }

  /** Every counter and phase timer now and the fold order they cover, read together on the coordinator's loop. */
  public Future<Counters.At> countersNow() {
    Promise<Counters.At> read = Promise.promise();
    context.runOnContext(v -> read.complete(new Counters.At(Counters.of(registry), view.position().order(),
        StateHash.of(view.state()))));
    return read.future();
  }

  @Override
  public void folded(LogRecord record, FleetState state, boolean redelivered) {
    metrics.folded(record, state, redelivered);
    if (redelivered) {
      return;
    }
    var numbered = recent.add(record);
    if (stream.hasClients()) {
      RecentRecords.EventItem.of(numbered).ifPresent(stream::send);
    }
  }

  @Override
  public Future<?> stopped() {
    stream.closeAll();
    return server == null ? Future.succeededFuture() : server.close();
  }
}
