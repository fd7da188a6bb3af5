package io.kvfleet.control.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.coordinator.CoordinatorStatus;
import io.kvfleet.control.coordinator.CoordinatorView;
import io.kvfleet.control.coordinator.FoldPosition;
import io.kvfleet.events.snapshot.StateHash;
import io.kvfleet.events.replay.FoldOrder;
import io.kvfleet.events.state.FleetState;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The ops server's access rules and the agent's metrics routes, over real HTTP on a stand-in coordinator. */
class OpsServerTest {
  private final Vertx vertx = Vertx.vertx();
  private final HttpClient http = HttpClient.newHttpClient();

  @AfterEach
  void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void protectedMetricsAskForTheTokenAndHealthStaysOpen() throws Exception {
    var token = new ApiToken("t0ken", false);
    int port = start(OpsOptions.loopback(0, token).withProtectedMetrics(true));
    assertThat(get(port, "/metrics", null).statusCode()).isEqualTo(401);
    var withToken = get(port, "/metrics", "t0ken");
    assertThat(withToken.statusCode()).isEqualTo(200);
    assertThat(withToken.body()).contains("kvfleet_publisher_buffer_events").contains("kvfleet_poison_records").contains("jvm_memory_used_bytes");
    assertThat(get(port, "/health", null).statusCode()).isEqualTo(200);
    assertThat(get(port, "/ready", null).statusCode()).as("not caught up yet").isEqualTo(503);
    assertThat(get(port, "/api/v1/peers", null).statusCode()).isEqualTo(401);
    assertThat(get(port, "/api/v1/peers", "t0ken").body()).isEqualTo("[]");
  }

  @Test
  void openMetricsNeedNoToken() throws Exception {
    int port = start(OpsOptions.loopback(0, new ApiToken("t0ken", false)));
    assertThat(get(port, "/metrics", null).statusCode()).isEqualTo(200);
    assertThat(get(port, "/assets/dashboard.js", null).statusCode()).as("static scripts hold no fleet data")
        .isEqualTo(200);
    assertThat(get(port, "/webjars/uplot/1.6.30/dist/uPlot.iife.min.js", null).statusCode()).isEqualTo(200);
  }

  @Test
  void theAgentsMetricsRoutesServeItsPublisherBufferBesideTheJvm() throws Exception {
    var router = Router.router(vertx);
    OpsMetrics.agentRoutes(OpsMetrics.registry(), "prefill-0", () -> 7, 10_000).accept(router);
    int port = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
        .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).actualPort();
    var body = get(port, "/metrics", null).body();
    assertThat(body).contains("kvfleet_publisher_buffer_events{node=\"prefill-0\"} 7.0")
        .contains("kvfleet_publisher_buffer_capacity_events{node=\"prefill-0\"} 10000.0")
        .contains("jvm_threads_live_threads");
  }

  private int start(OpsOptions options) throws Exception {
    var server = new OpsServer(options, OpsMetrics.registry());
    var context = vertx.getOrCreateContext();
    var started = new java.util.concurrent.CompletableFuture<Integer>();
    context.runOnContext(v -> server.started(vertx, new Standing()).compose(x -> server.port())
        .onComplete(r -> {
          if (r.succeeded()) {
            started.complete(r.result());
          } else {
            started.completeExceptionally(r.cause());
          }
        }));
    return started.get(10, TimeUnit.SECONDS);
  }

  private HttpResponse<String> get(int port, String path, String token) throws Exception {
    var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** A coordinator that has folded nothing and not caught up. */
  private static final class Standing implements CoordinatorView {
    private final FleetState state = new FleetState();

    @Override
    public FleetState state() {
      return state;
    }

    @Override
    public CoordinatorStatus status() {
      return new CoordinatorStatus("c-0", false, 0, 0, 0, 0, 0, StateHash.of(state), List.of(), 0, 0, 0, 0, 0);
    }

    @Override
    public FoldPosition position() {
      return new FoldPosition("c-0", 0, StateHash.of(state), new TreeMap<>(), FoldOrder.EMPTY, "", 0);
    }

    @Override
    public Future<Map<String, Long>> endOffsets() {
      return Future.succeededFuture(Map.of());
    }

    @Override
    public int publisherWaiting() {
      return 0;
    }

    @Override
    public int publisherCapacity() {
      return 1;
    }
  }
}
