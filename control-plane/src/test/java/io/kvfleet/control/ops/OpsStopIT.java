package io.kvfleet.control.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The coordinator stops however its dashboard's clients left their connections: an event stream
 * nobody reads, an idle keep-alive connection, a request sent half way. Vert.x 5 closes an HTTP
 * server only once every connection is closed, and the ops server drops an idle one after a minute.
 */
class OpsStopIT {
  private final List<Socket> clients = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (var client : clients) {
      client.close();
    }
  }

  @Test
  void theCoordinatorStopsWhileClientsHoldTheirConnectionsOpen() throws Exception {
    var ops = new OpsFleet(false, 5);
    try {
      var uri = URI.create(ops.base);
      var stream = send(uri, "GET /api/v1/stream?access_token=" + ops.token + " HTTP/1.1\r\nHost: ops\r\n\r\n");
      readUntil(stream.getInputStream(), "text/event-stream");
      var idle = send(uri, "GET /health HTTP/1.1\r\nHost: ops\r\n\r\n");
      readUntil(idle.getInputStream(), "\"up\"");
      send(uri, "GET /api/v1/peers HTTP/1.1\r\nHost: ops\r\n"); // the headers never end
    } finally {
      ops.close(); // DemoFleet.close fails with a TimeoutException naming the step that did not end in a minute
    }
    for (var client : clients) {
      client.setSoTimeout(10_000);
      var in = client.getInputStream();
      while (in.read() >= 0) {
        // what was still on its way; the server then closed the connection
      }
    }
  }

  private Socket send(URI uri, String request) throws Exception {
    var socket = new Socket(uri.getHost(), uri.getPort());
    clients.add(socket);
    OutputStream out = socket.getOutputStream();
    out.write(request.getBytes(StandardCharsets.US_ASCII));
    out.flush();
    return socket;
  }

  private static void readUntil(InputStream in, String text) throws Exception {
    var seen = new StringBuilder();
    int b;
    while (!seen.toString().contains(text) && (b = in.read()) >= 0) {
      seen.append((char) b);
    }
    assertThat(seen.toString()).contains(text);
  }
}
