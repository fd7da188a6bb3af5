package io.kvfleet.control.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A real Vert.x server on loopback, with real sockets as clients that stop half way. */
class HttpLimitsTest {
  private static final int IDLE_SECONDS = 1;
  /** Far longer than a test waits: a connection closed sooner was not closed for its silence. */
  private static final int LONG_IDLE_SECONDS = 120;
  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get();
  }

  @Test
  void closesAConnectionThatStopsHalfWayThroughItsHeaders() throws Exception {
    try (Socket slow = new Socket("127.0.0.1", serve(IDLE_SECONDS))) {
      slow.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII));

      assertThat(read(slow, IDLE_SECONDS * 20_000)).as("what the server did with it").isEqualTo("closed");
    }
  }

  @Test
  void answersARequestThatComesWhole() throws Exception {
    try (Socket client = new Socket("127.0.0.1", serve(IDLE_SECONDS))) {
      client.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));

      assertThat(read(client, 20_000)).startsWith("HTTP/1.1 200");
    }
  }

  @Test
  void withoutAnIdleTimeHoldsTheConnection() throws Exception {
    try (Socket slow = new Socket("127.0.0.1", serve(0))) {
      slow.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII));

      assertThat(read(slow, IDLE_SECONDS * 3_000)).as("Vert.x's default, which the agent no longer uses").isEqualTo("held");
    }
  }

  @Test
  void closesAtOnceAConnectionBeyondTheCapEvenBeforeItSendsAByte() throws Exception {
    int port = serve(LONG_IDLE_SECONDS, 2);
    try (Socket first = slowClient(port); Socket second = slowClient(port); Socket third = new Socket("127.0.0.1", port)) {
      // Closed long before the idle time: by the cap, not by silence.
      assertThat(read(third, LONG_IDLE_SECONDS * 500)).as("what the server did with the third").isEqualTo("closed");
      assertThat(read(first, 200)).as("the first, within the cap").isEqualTo("held");
    }
  }

  @Test
  void takesANewConnectionOnceOneWithinTheCapCloses() throws Exception {
    int port = serve(LONG_IDLE_SECONDS, 1);
    slowClient(port).close();
    // The server hears of the close a moment later: until then a new connection may still be refused.
    String answer = "closed";
    for (int tries = 0; tries < 100 && answer.equals("closed"); tries++) {
      try (Socket client = new Socket("127.0.0.1", port)) {
        client.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        answer = read(client, 20_000);
      }
    }
    assertThat(answer).startsWith("HTTP/1.1 200");
  }

  /** A client that starts its headers and never finishes them. */
  private static Socket slowClient(int port) throws IOException {
    var socket = new Socket("127.0.0.1", port);
    socket.getOutputStream().write("POST / HTTP/1.1\r\nHost: x\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII));
    return socket;
  }

  private int serve(int idleSeconds, int maxConnections) throws Exception {
    var server = HttpLimits.server(vertx, idleSeconds, maxConnections, "test", request -> request.response().end("ok"));
    return server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get().actualPort();
  }

  private int serve(int idleSeconds) throws Exception {
    return serve(idleSeconds, HttpLimits.MAX_CONNECTIONS);
  }

  /** "closed", or what the server sent first, or "held" when it did neither within {@code millis}. */
  private static String read(Socket socket, int millis) throws IOException {
    socket.setSoTimeout(millis);
    InputStream in = socket.getInputStream();
    byte[] buffer = new byte[64];
    try {
      int n = in.read(buffer);
      return n < 0 ? "closed" : new String(buffer, 0, n, StandardCharsets.US_ASCII);
    } catch (SocketTimeoutException e) {
      return "held";
    } catch (IOException reset) {
      return "closed";
    }
  }
}
