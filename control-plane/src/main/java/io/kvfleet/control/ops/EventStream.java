package io.kvfleet.control.ops;

import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.util.HashSet;
import java.util.Set;

/**
 * The live event stream (Server-Sent Events): each event the coordinator folds goes to every open
 * stream as one {@code data:} line of JSON. A client that does not keep up loses events rather
 * than holding the coordinator's memory (its {@code id:} numbers show the gap). One thread owns it.
 */
final class EventStream {
  private final Set<HttpServerResponse> open = new HashSet<>();

  void open(RoutingContext ctx) {
    var response = ctx.response();
    response.setChunked(true).putHeader("content-type", "text/event-stream").putHeader("cache-control", "no-cache");
    response.write(": kvfleet event stream\n\n");
    open.add(response);
    response.closeHandler(v -> open.remove(response));
    response.exceptionHandler(e -> open.remove(response));
  }

  /** A comment line to every open stream, so a quiet fleet's streams outlive the server's idle time. */
  void keepAlive() {
    for (var response : open) {
      if (!response.writeQueueFull()) {
        response.write(": keep-alive\n\n");
      }
    }
  }

  boolean hasClients() {
    return !open.isEmpty();
  }

  void send(RecentRecords.EventItem item) {
    String frame = "id: " + item.index() + "\ndata: " + OpsJson.write(item) + "\n\n";
    for (var response : open) {
      if (!response.writeQueueFull()) {
        response.write(frame);
      }
    }
  }

  void closeAll() {
    for (var response : Set.copyOf(open)) {
      response.end();
    }
    open.clear();
  }
}
