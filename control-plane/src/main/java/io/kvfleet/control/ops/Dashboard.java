package io.kvfleet.control.ops;

import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.StaticHandler;

/**
 * The dashboard: one page and its scripts, all served from this jar (uPlot from its WebJar),
 * nothing from outside. The page asks for the token; its static scripts and styles do not
 * (they hold no fleet data).
 */
final class Dashboard {
  private Dashboard() {}

  static void mountAssets(Router router) {
    router.get("/assets/*").handler(StaticHandler.create("ops/assets").setCachingEnabled(false));
    router.get("/webjars/*").handler(StaticHandler.create("META-INF/resources/webjars"));
  }

  static void mountPage(Router router) {
    router.get("/").handler(ctx -> ctx.response().putHeader("content-type", "text/html; charset=utf-8")
        .putHeader("cache-control", "no-store").sendFile("ops/index.html"));
  }
}
