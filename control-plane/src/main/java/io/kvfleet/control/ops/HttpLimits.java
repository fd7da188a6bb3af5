package io.kvfleet.control.ops;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An HTTP server that closes a connection silent for a while, so a client that stops half way
 * through its request is not held for ever (Vert.x's default options never close one, and the
 * token check runs only once the headers are complete), and that holds at most so many
 * connections: a client that drips a byte within every idle period keeps its connection, so the
 * cap is what bounds how many such clients hold the server's descriptors. Nothing here caps a
 * request's whole time.
 */
public final class HttpLimits {
  private static final Logger LOG = LoggerFactory.getLogger(HttpLimits.class);
  /** Far more than a node's workers or an ops page's scrapers and streams need; far fewer than a descriptor limit. */
  public static final int MAX_CONNECTIONS = 256;

  private HttpLimits() {}

  /**
   * A server handing requests to {@code requests} that closes a connection silent for {@code
   * idleSeconds} and, at once, every connection beyond {@code maxConnections} open ({@code name}
   * says which server in the warning).
   */
  public static HttpServer server(Vertx vertx, int idleSeconds, int maxConnections, String name,
      Handler<HttpServerRequest> requests) {
    // Without HTTP/2 over clear text, Vert.x hands over an HTTP/1 connection as it is accepted; with
    // it, only once the first request's headers are complete (it reads them to tell the protocols
    // apart), so a client that never finishes them would not be counted.
    var options = new HttpServerOptions().setIdleTimeout(idleSeconds).setIdleTimeoutUnit(TimeUnit.SECONDS)
        .setHttp2ClearTextEnabled(false);
    var open = new AtomicInteger();
    var refused = new AtomicLong();
    return vertx.createHttpServer(options).connectionHandler(connection -> {
      if (open.incrementAndGet() > maxConnections) {
        open.decrementAndGet();
        long count = refused.incrementAndGet();
        if (Long.bitCount(count) == 1) { // the 1st, 2nd, 4th, 8th... refusal: a flood does not flood the log
          LOG.warn("{} server: {} connections open, its cap; closed the one from {} ({} closed so far): slow"
              + " clients? see docs/SECURITY.md, slow clients", name, maxConnections, connection.remoteAddress(), count);
        }
        connection.close();
        return;
      }
      connection.closeHandler(closed -> open.decrementAndGet());
    }).requestHandler(requests);
  }
}
