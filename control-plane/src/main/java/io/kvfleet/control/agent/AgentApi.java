package io.kvfleet.control.agent;

import io.kvfleet.control.Json;
import io.kvfleet.control.KvfleetException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.List;
import java.util.Map;

/**
 * The agent's local registration API for inference workers on the same host (HTTP/JSON on
 * loopback; documented in {@code openapi/node-agent.yaml}). Answers come after the outcome events
 * are durably in Kafka, or say they are pending. Everything under {@code /v1} asks for the agent's
 * bearer token; {@code /health} and the extra routes ({@code /metrics}, which Prometheus scrapes
 * without credentials) stay open and say nothing a caller could use to touch memory.
 */
final class AgentApi {
  private AgentApi() {}

  static Router router(Vertx vertx, NodeAgent agent, ApiCredential token) {
    var router = Router.router(vertx);
    router.get("/health").handler(ctx -> json(ctx, 200, Map.of("status", "up")));
    agent.extraRoutes().accept(router);
    router.route("/v1/*").handler(new BearerCheck(token));
    router.route().handler(BodyHandler.create().setBodyLimit(16 * 1024 * 1024));
    router.get("/v1/node").handler(ctx -> json(ctx, 200, Map.of("nodeId", agent.nodeId(),
        "epoch", agent.epoch(), "draining", agent.draining(), "capabilities", agent.capabilities())));
    router.post("/v1/components").handler(ctx -> answer(ctx, parse(ctx).compose(agent::register)));
    router.post("/v1/layout").handler(ctx -> answer(ctx, layout(ctx).compose(agent::declare)));
    router.delete("/v1/regions/:regionId").handler(ctx ->
        answer(ctx, agent.deregister(ctx.pathParam("regionId"))));
    return router;
  }

  private static Future<List<Component>> parse(RoutingContext ctx) {
    try {
      var body = Json.read(ctx.body().asString(), ComponentsRequest.class);
      return Future.succeededFuture(body.toComponents());
    } catch (RuntimeException e) {
      return Future.failedFuture(KvfleetException.badInput("bad registration request: " + e.getMessage()));
    }
  }

  private static Future<ServedModel> layout(RoutingContext ctx) {
    try {
      return Future.succeededFuture(Json.read(ctx.body().asString(), LayoutRequest.class).toModel());
    } catch (RuntimeException e) {
      return Future.failedFuture(KvfleetException.badInput("bad layout: " + e.getMessage()));
    }
  }

  private static void answer(RoutingContext ctx, Future<RegistrationAnswer> answer) {
    answer.onSuccess(a -> json(ctx, status(a), a))
        .onFailure(error -> json(ctx, status(error), Map.of("error", String.valueOf(error.getMessage()))));
  }

  /**
   * 200 when every entry registered (or was skipped) or the region was released, 202 when so but the
   * outcome events still wait for Kafka, 207 when some entries failed and some registered, 422 when
   * none registered and some failed (whether the events are durable is in the body either way).
   */
  static int status(RegistrationAnswer answer) {
    return switch (answer.outcome()) {
      case REGISTERED, DEREGISTERED -> answer.durable() ? 200 : 202;
      case PARTIAL -> 207;
      case FAILED -> 422;
    };
  }

  /**
   * The status by what went wrong: a full buffer or an absent Kafka is unavailable, a region still moving
   * bytes is a conflict to retry later; neither is the caller's fault. A call whose event could never be a Kafka
   * record (a layout too large) is 413.
   */
  static int status(Throwable error) {
    if (!(error instanceof KvfleetException known)) {
      return 400;
    }
    return switch (known.kind()) {
      case BUFFER_FULL, KAFKA_UNREACHABLE, KAFKA_REFUSED, KAFKA_START_FAILED, REJOINING -> 503;
      case NOT_FOUND -> 404;
      case SUPERSEDED, BUSY -> 409;
      case BAD_INPUT, BENCH_FAILED -> 400;
      case EVENT_TOO_LARGE -> 413;
    };
  }

  private static void json(RoutingContext ctx, int status, Object body) {
    ctx.response().setStatusCode(status).putHeader("content-type", "application/json").end(Json.write(body));
  }
}
