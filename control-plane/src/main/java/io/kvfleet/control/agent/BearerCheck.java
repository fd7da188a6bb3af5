package io.kvfleet.control.agent;

import io.kvfleet.control.Json;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import java.util.Map;

/** Lets a request to the agent's API on only with {@code Authorization: Bearer TOKEN}; else 401 with a JSON error. */
final class BearerCheck implements Handler<RoutingContext> {
  private final ApiCredential token;

  BearerCheck(ApiCredential token) {
    this.token = token;
  }

  @Override
  public void handle(RoutingContext ctx) {
    String header = ctx.request().getHeader("authorization");
    String offered = header != null && header.regionMatches(true, 0, "Bearer ", 0, 7) ? header.substring(7).strip() : null;
    if (token.matches(offered)) {
      ctx.next();
      return;
    }
    ctx.response().setStatusCode(401).putHeader("www-authenticate", "Bearer realm=\"kvfleet-node\"")
        .putHeader("content-type", "application/json")
        .end(Json.write(Map.of("error", offered == null
            ? "this needs the agent's API token: send 'Authorization: Bearer TOKEN' (the token is in the file"
                + " the agent printed as kvfleet-node-api-token-file)"
            : "the API token given is not this agent's")));
  }
}
