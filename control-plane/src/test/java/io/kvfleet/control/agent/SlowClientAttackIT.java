package io.kvfleet.control.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.coordinator.FleetAccess;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Red team (att2). The agent's local API (AgentApi, served by {@code vertx.createHttpServer()} in NodeAgent with the
 * default HttpServerOptions) has no idle, header or body time-out and no connection limit. Any local process, with
 * no token at all (the BearerCheck runs only once the headers are complete), opens connections and never finishes
 * a request (slowloris): the agent holds every one, and its descriptor, for ever. Enough of them and the agent
 * cannot open a shm object, a grant or a Kafka connection. A client that stops half way is a hang, not an answer.
 */
class SlowClientAttackIT {
  /** Far past any sane idle or request time-out for a loopback API (a fix would close within seconds). */
  private static final int PATIENCE_MILLIS = 45_000;
  /** A third of the agent API's 30 s idle time. */
  private static final int WELL_WITHIN_IDLE_MILLIS = 10_000;
  private final FleetAccess fleet = new FleetAccess();
  private final List<Socket> sockets = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (Socket s : sockets) {
      s.close();
    }
    fleet.close();
  }

  @Test
  void theAgentDoesNotHoldAConnectionWhoseRequestNeverFinishes() throws Exception {
    int port = fleet.agentWithApi("prefill-0");
    for (int i = 0; i < 20; i++) {
      var socket = new Socket("127.0.0.1", port);
      sockets.add(socket);
      // Headers begun, never finished: no token needed to get this far.
      socket.getOutputStream().write("POST /v1/components HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
          .getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
    }

    Socket last = sockets.getLast();
    last.setSoTimeout(PATIENCE_MILLIS);
    assertThat(closedOrAnswered(last.getInputStream()))
        .as("the agent closed (or answered) a connection that never finished its request within "
            + PATIENCE_MILLIS / 1000 + " s")
        .isTrue();
  }

  @Test
  void theAgentClosesAtOnceAConnectionBeyondItsCap() throws Exception {
    int port = fleet.agentWithApi("prefill-0");
    // As many held connections as the cap allows: each could drip a byte within every idle period.
    for (int i = 0; i < io.kvfleet.control.ops.HttpLimits.MAX_CONNECTIONS; i++) {
      var socket = new Socket("127.0.0.1", port);
      sockets.add(socket);
      socket.getOutputStream().write("POST /v1/components HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
          .getBytes(StandardCharsets.US_ASCII));
    }
    var beyond = new Socket("127.0.0.1", port);
    sockets.add(beyond);
    beyond.setSoTimeout(WELL_WITHIN_IDLE_MILLIS);
    assertThat(closedOrAnswered(beyond.getInputStream()))
        .as("the agent closed the connection beyond its cap within " + WELL_WITHIN_IDLE_MILLIS / 1000
            + " s, a third of its idle time (it was not closed for silence)")
        .isTrue();
  }

  private static boolean closedOrAnswered(InputStream in) throws IOException {
    try {
      in.read(); // -1: closed; a byte: an answer (408 or 400)
      return true;
    } catch (SocketTimeoutException stillHeld) {
      return false;
    } catch (IOException reset) {
      return true; // closed by a reset
    }
  }
}
