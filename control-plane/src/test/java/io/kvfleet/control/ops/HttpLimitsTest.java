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

  private int serve(int idleSeconds) throws Exception {
    var server = HttpLimits.server(vertx, idleSeconds, request -> request.response().end("ok"));
    return server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get().actualPort();
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
