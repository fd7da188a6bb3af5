package io.kvfleet.control.ops;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;

/**
 * Lets a request on only with the API token: {@code Authorization: Bearer TOKEN}, or
 * {@code ?access_token=TOKEN} (RFC 6750) for what a browser opens itself (the page, the event
 * stream). Anything else is answered 401.
 */
final class TokenCheck implements Handler<RoutingContext> {
  private final ApiToken token;

  TokenCheck(ApiToken token) {
    this.token = token;
  }

  @Override
  public void handle(RoutingContext ctx) {
    String header = ctx.request().getHeader("authorization");
    String offered = header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)
        ? header.substring(7).strip() : ctx.queryParams().get("access_token");
    if (token.matches(offered)) {
      ctx.next();
      return;
    }
    ctx.response().putHeader("www-authenticate", "Bearer realm=\"kvfleet\"");
    OpsHttp.error(ctx, 401, offered == null
        ? "this needs the API token: send 'Authorization: Bearer TOKEN' (or ?access_token=TOKEN)"
        : "the API token given is not this coordinator's");
  }
}
