package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.control.Json;
import io.kvfleet.control.agent.InProcessDataPlane;
import io.kvfleet.control.agent.NodeAgent;
import io.kvfleet.control.agent.TransferOrder;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** An agent runs an order once however often it is sent, and refuses one it cannot read. */
class AgentOrdersIT {
  private final Fleet fleet = new Fleet();

  @AfterEach
  void close() throws Exception {
    fleet.close();
  }

  @Test
  void runsAnOrderSentTwiceOnlyOnce() throws Exception {
    fleet.startAgent("prefill-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    fleet.startAgent("decode-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    fleet.awaitState("both regions", Duration.ofSeconds(60), s -> s.region("decode-0", "kv_data-0").isPresent()
        && s.region("prefill-0", "kv_data-0").isPresent());
    var state = fleet.state();
    var request = new TransferRequested("t-twice", "prefill-0", 1, "kv_data-0", "decode-0", 1, "kv_data-0",
        TransferOp.WRITE, List.of(new ByteRange(0, 0, 4096)), System.currentTimeMillis() + 30_000, false);
    var order = Json.write(new TransferOrder(request, state.region("prefill-0", "kv_data-0").orElseThrow().spec(),
        state.region("decode-0", "kv_data-0").orElseThrow().spec(),
        state.region("decode-0", "kv_data-0").orElseThrow().remoteKeys(), ""));
    assertThat(send(order)).isEqualTo("io.kvfleet.transfer.completed");
    assertThat(send(order)).contains("duplicate order for t-twice");
    Thread.sleep(500); // a second completion would be right behind the first
    assertThat(fleet.events("t-twice", e -> e instanceof TransferCompleted)).hasSize(1);
  }

  @Test
  void refusesAnOrderItCannotReadWithTheReason() throws Exception {
    fleet.startAgent("prefill-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    assertThatThrownBy(() -> send("{\"request\": 42}"))
        .isInstanceOf(ExecutionException.class)
        .hasMessageContaining("unreadable transfer order");
  }

  private String send(String order) throws Exception {
    return fleet.vertx.eventBus().<String>request(NodeAgent.address("prefill-0"), order)
        .toCompletionStage().toCompletableFuture().get(30, java.util.concurrent.TimeUnit.SECONDS).body();
  }
}
