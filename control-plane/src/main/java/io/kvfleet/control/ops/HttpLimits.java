package io.kvfleet.control.ops;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.util.concurrent.TimeUnit;

/**
 * An HTTP server that closes a connection silent for a while, so a client that stops half way
 * through its request is not held for ever. Vert.x's default options never close one, and the
 * token check runs only once the headers are complete. A client that drips a byte within every
 * idle period still holds its connection: nothing here caps connections or a request's whole time.
 */
public final class HttpLimits {
  private HttpLimits() {}

  /** A server handing requests to {@code requests} that closes a connection silent for {@code idleSeconds}. */
  public static HttpServer server(Vertx vertx, int idleSeconds, Handler<HttpServerRequest> requests) {
    var options = new HttpServerOptions().setIdleTimeout(idleSeconds).setIdleTimeoutUnit(TimeUnit.SECONDS);
    return vertx.createHttpServer(options).requestHandler(requests);
  }
}
