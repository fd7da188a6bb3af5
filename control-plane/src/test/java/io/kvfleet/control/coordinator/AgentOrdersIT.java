package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.control.dataplane.InProcessDataPlane;
import io.kvfleet.control.protocol.Addresses;
import io.kvfleet.control.protocol.OrderReply;
import io.kvfleet.control.protocol.TransferOrder;
import io.kvfleet.control.kafka.Await;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** An agent runs an order once however often it is sent, and refuses an order or a staged chunk it cannot read. */
class AgentOrdersIT {
  private final Fleet fleet = new Fleet();

  @AfterEach
  void close() throws Exception {
    fleet.close();
  }

  @Test
  void runsAnOrderSentTwiceOnlyOnce() throws Exception {
    startAgents();
    var order = order("t-twice", "request-1");
    assertThat(send(order)).isEqualTo(OrderReply.ran("t-twice", "io.kvfleet.transfer.completed"));
    assertThat(send(order)).isEqualTo(OrderReply.duplicate("t-twice"));
    Thread.sleep(500); // a second completion would be right behind the first
    assertThat(fleet.events("t-twice", e -> e instanceof TransferCompleted)).hasSize(1);
  }

  @Test
  void runsTheOrderOfALaterRequestThatReusesAForgottenTransferId() throws Exception {
    startAgents();

    assertThat(send(order("t-reused", "request-1")).kind()).isEqualTo(OrderReply.Kind.RAN);
    assertThat(send(order("t-reused", "request-2")).kind()).isEqualTo(OrderReply.Kind.RAN);

    Await.until("both completions in the log", Duration.ofSeconds(30),
        () -> fleet.events("t-reused", e -> e instanceof TransferCompleted).size() >= 2);
    Thread.sleep(500); // a third would be right behind
    assertThat(fleet.events("t-reused", e -> e instanceof TransferCompleted)).hasSize(2);
  }

  @Test
  void refusesAStagedChunkItCannotReadWithTheReason() throws Exception {
    fleet.startAgent("prefill-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    assertThatThrownBy(() -> fleet.vertx.eventBus().<String>request(Addresses.landings("prefill-0"), "{\"chunk\": [")
        .toCompletionStage().toCompletableFuture().get(30, java.util.concurrent.TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .hasMessageContaining("unreadable staged chunk");
  }

  /** Starts prefill-0 and decode-0 and waits until the log has both their regions. */
  private void startAgents() throws Exception {
    fleet.startAgent("prefill-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    fleet.startAgent("decode-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    fleet.awaitState("both regions", Duration.ofSeconds(60), s -> s.region("decode-0", "kv_data-0").isPresent()
        && s.region("prefill-0", "kv_data-0").isPresent());
  }

  /** The order for a one-page WRITE from prefill-0 to decode-0, for request record {@code requestEventId}. */
  private TransferOrder order(String transferId, String requestEventId) {
    var state = fleet.state();
    var request = new TransferRequested(transferId, "prefill-0", 1, "kv_data-0", "decode-0", 1, "kv_data-0",
        TransferOp.WRITE, List.of(new ByteRange(0, 0, 4096)), System.currentTimeMillis() + 30_000, false);
    var destination = state.region("decode-0", "kv_data-0").orElseThrow();
    return new TransferOrder(request, state.region("prefill-0", "kv_data-0").orElseThrow().spec(),
        destination.spec(), destination.remoteKeys(), "", requestEventId);
  }

  @Test
  void refusesAnOrderItCannotReadWithTheReason() throws Exception {
    fleet.startAgent("prefill-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    assertThatThrownBy(() -> fleet.vertx.eventBus().request(Addresses.transfers("prefill-0"), "{\"request\": 42}")
        .toCompletionStage().toCompletableFuture().get(30, java.util.concurrent.TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .hasMessageContaining("unreadable transfer order");
  }

  private OrderReply send(TransferOrder order) throws Exception {
    return fleet.vertx.eventBus().<OrderReply>request(Addresses.transfers("prefill-0"), order)
        .toCompletionStage().toCompletableFuture().get(30, java.util.concurrent.TimeUnit.SECONDS).body();
  }
}
