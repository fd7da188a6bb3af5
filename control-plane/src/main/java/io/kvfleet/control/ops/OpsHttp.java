package io.kvfleet.control.ops;

import io.vertx.ext.web.RoutingContext;
import java.util.Map;

/** Answers in JSON. */
final class OpsHttp {
  private OpsHttp() {}

  static void json(RoutingContext ctx, int status, Object body) {
    ctx.response().setStatusCode(status).putHeader("content-type", "application/json").end(OpsJson.write(body));
  }

  static void error(RoutingContext ctx, int status, String message) {
    json(ctx, status, Map.of("error", message));
  }
}
