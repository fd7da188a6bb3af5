package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.control.dataplane.InProcessDataPlane;
import io.kvfleet.control.kafka.Await;
import io.kvfleet.control.protocol.Addresses;
import io.kvfleet.control.protocol.OrderSignature;
import io.kvfleet.control.protocol.Protocol;
import io.kvfleet.control.protocol.TransferOrder;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.trust.FleetKey;
import io.kvfleet.events.trust.KeyBinding;
import io.kvfleet.events.trust.Role;
import io.kvfleet.events.trust.Signing;
import io.kvfleet.events.trust.TrustFile;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An agent takes its orders from the log: it runs a dispatch to its current epoch once however
 * often it is read, refuses (and counts, and ends nothing for) an order that came over the
 * EventBus, a dispatch to another epoch, and, with a trust file, an unsigned or forged one.
 */
class AgentOrdersIT {
  private final Fleet fleet = new Fleet();

  @AfterEach
  void close() throws Exception {
    fleet.close();
  }

  @Test
  void runsADispatchReadTwiceOnlyOnce() throws Exception {
    startAgents();
    var dispatch = dispatch("t-twice", "request-1", 1);
    fleet.publishAs("coordinator-test", 1, dispatch);
    fleet.publishAs("coordinator-test", 1, dispatch);

    Await.until("the completion in the log", Duration.ofSeconds(30),
        () -> !fleet.events("t-twice", e -> e instanceof TransferCompleted).isEmpty());
    Thread.sleep(500); // a second completion would be right behind the first
    assertThat(fleet.events("t-twice", e -> e instanceof TransferCompleted)).hasSize(1);
  }

  @Test
  void doesNotRunADispatchWhoseTransferTheLogHadEndedBeforeIt() throws Exception {
    startAgents();
    // A coordinator that lost the partition and had not learnt it yet rejects the request; the new owner dispatches it.
    fleet.publishAs("coordinator-old", 1, new TransferRejected("t-late", "prefill-0", ReasonCodes.PEER_NOT_ALIVE,
        "decode-0 looked silent to a coordinator back from a pause"));
    fleet.publishAs("coordinator-test", 1, dispatch("t-late", "request-1", 1));

    Await.until("prefill-0's answer in the log", Duration.ofSeconds(30),
        () -> !fleet.events("t-late", e -> e instanceof TransferFailed || e instanceof TransferCompleted).isEmpty());
    assertThat(fleet.events("t-late", e -> e instanceof TransferCompleted)).as("bytes moved for a rejected transfer")
        .isEmpty();
    assertThat(fleet.events("t-late", e -> e instanceof TransferFailed)).singleElement()
        .isInstanceOfSatisfying(TransferFailed.class, f -> {
          assertThat(f.reason()).isEqualTo(ReasonCodes.ENDED_BY_FLEET);
          assertThat(f.detail()).startsWith("0 B sent").contains("transfer.rejected PEER_NOT_ALIVE by coordinator-old", "not run");
        });
  }

  @Test
  void stopsATransferItRunsAtThePageAfterItReadsThatTheFleetFailedIt() throws Exception {
    var paged = new PagedDataPlane();
    fleet.startAgent("prefill-0", 1, paged, Duration.ofSeconds(1));
    fleet.startAgent("decode-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    fleet.awaitState("both regions", Duration.ofSeconds(60), s -> s.region("decode-0", "kv_data-0").isPresent()
        && s.region("prefill-0", "kv_data-0").isPresent());
    fleet.publishAs("coordinator-test", 1, dispatch("t-cut", "request-1", 1,
        List.of(new ByteRange(0, 0, 4096), new ByteRange(4096, 4096, 4096))));

    assertThat(paged.secondPage.await(30, TimeUnit.SECONDS)).as("the transfer reached its second page").isTrue();
    fleet.publishAs("coordinator-ender", 1, new TransferFailed("t-cut", "prefill-0", ReasonCodes.PEER_LOST, 0,
        "decode-0 epoch 1 was declared lost"));

    Await.until("prefill-0's answer in the log", Duration.ofSeconds(60), () -> fleet.events("t-cut",
        e -> e instanceof TransferCompleted || e instanceof TransferFailed f && !f.reason().equals(ReasonCodes.PEER_LOST))
        .size() == 1);
    assertThat(fleet.events("t-cut", e -> e instanceof TransferCompleted)).as("a completion after the fleet failed it")
        .isEmpty();
    assertThat(fleet.events("t-cut", e -> e instanceof TransferFailed f && f.reason().equals(ReasonCodes.ENDED_BY_FLEET)))
        .singleElement().isInstanceOfSatisfying(TransferFailed.class, f -> assertThat(f.detail())
            .startsWith("4096 B sent before prefill-0 read").contains("transfer.failed PEER_LOST by coordinator-ender"));
  }

  @Test
  void runsTheOrderOfALaterRequestThatReusesAForgottenTransferId() throws Exception {
    startAgents();
    fleet.publishAs("coordinator-test", 1, dispatch("t-reused", "request-1", 1));
    fleet.publishAs("coordinator-test", 1, dispatch("t-reused", "request-2", 1));

    Await.until("both completions in the log", Duration.ofSeconds(30),
        () -> fleet.events("t-reused", e -> e instanceof TransferCompleted).size() >= 2);
    Thread.sleep(500); // a third would be right behind
    assertThat(fleet.events("t-reused", e -> e instanceof TransferCompleted)).hasSize(2);
  }

  @Test
  void refusesAnOrderSentOverTheEventBusAndRunsNothingForIt() throws Exception {
    startAgents();
    Protocol.install(fleet.vertx.eventBus());
    var order = TransferOrder.of(dispatch("t-bus", "request-1", 1).order());

    assertThatThrownBy(() -> fleet.vertx.eventBus().request(Addresses.transfers("prefill-0"), order)
        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .hasMessageContaining(ReasonCodes.ORDER_NOT_FROM_LOG);
    Thread.sleep(1_000); // its completion would have come by now
    assertThat(fleet.events("t-bus", e -> true)).isEmpty();
    assertThat(fleet.agent("prefill-0").refusedOrders()).containsEntry(ReasonCodes.ORDER_NOT_FROM_LOG, 1L);
  }

  @Test
  void refusesADispatchToAnotherEpochOfTheNodeWithoutEndingIt() throws Exception {
    startAgents();
    fleet.publishAs("coordinator-test", 1, dispatch("t-other-epoch", "request-1", 2));
    fleet.publishAs("coordinator-test", 1, dispatch("t-after", "request-1", 1));

    Await.until("the later transfer's completion", Duration.ofSeconds(30),
        () -> !fleet.events("t-after", e -> e instanceof TransferCompleted).isEmpty());
    assertThat(fleet.events("t-other-epoch", e -> !(e instanceof TransferRequested || e instanceof TransferDispatched)))
        .isEmpty();
    assertThat(fleet.agent("prefill-0").refusedOrders()).containsEntry(ReasonCodes.ORDER_WRONG_EPOCH, 1L);
  }

  @Test
  void withATrustFileRunsOnlyAnOrderSignedByTheCoordinatorsKey() throws Exception {
    var coordinator = FleetKey.generate("coordinator-key");
    var trust = TrustFile.of(new KeyBinding("coordinator-key", coordinator.publicKey(), Role.COORDINATOR,
        java.util.Set.of("coordinator-test"), java.util.Set.of()));
    fleet.agentSigning(new Signing(Optional.empty(), Optional.of(trust)));
    startAgents();
    var signed = OrderSignature.sign(dispatch("t-signed", "request-1", 1), coordinator);
    var unsigned = dispatch("t-unsigned", "request-1", 1);
    var strangers = OrderSignature.sign(dispatch("t-stranger", "request-1", 1), FleetKey.generate("coordinator-key"));
    var renamed = OrderSignature.sign(dispatch("t-unknown-key", "request-1", 1), FleetKey.generate("router-key"));

    for (var d : List.of(unsigned, strangers, renamed, signed)) {
      fleet.publishAs("coordinator-test", 1, d);
    }

    Await.until("the signed order's completion", Duration.ofSeconds(30),
        () -> !fleet.events("t-signed", e -> e instanceof TransferCompleted).isEmpty());
    for (String refused : List.of("t-unsigned", "t-stranger", "t-unknown-key")) {
      assertThat(fleet.events(refused, e -> !(e instanceof TransferDispatched))).as(refused).isEmpty();
    }
    assertThat(fleet.agent("prefill-0").refusedOrders()).containsExactlyInAnyOrderEntriesOf(Map.of(
        ReasonCodes.ORDER_UNSIGNED, 1L, ReasonCodes.ORDER_SIGNATURE_INVALID, 1L, ReasonCodes.ORDER_KEY_UNKNOWN, 1L));
  }

  @Test
  void refusesAStagedChunkItCannotReadWithTheReason() throws Exception {
    fleet.startAgent("prefill-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    assertThatThrownBy(() -> fleet.vertx.eventBus().<String>request(Addresses.landings("prefill-0"), "{\"chunk\": [")
        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .hasMessageContaining("unreadable staged chunk");
  }

  /** Starts prefill-0 and decode-0 at epoch 1 and waits until the log has both their regions. */
  private void startAgents() throws Exception {
    fleet.startAgent("prefill-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    fleet.startAgent("decode-0", 1, new InProcessDataPlane(), Duration.ofSeconds(1));
    fleet.awaitState("both regions", Duration.ofSeconds(60), s -> s.region("decode-0", "kv_data-0").isPresent()
        && s.region("prefill-0", "kv_data-0").isPresent());
  }

  /** The dispatch of a one-page WRITE from prefill-0 at {@code epoch} to decode-0, for record {@code requestEventId}. */
  private TransferDispatched dispatch(String transferId, String requestEventId, long epoch) {
    return dispatch(transferId, requestEventId, epoch, List.of(new ByteRange(0, 0, 4096)));
  }

  /** As above, of {@code ranges}. */
  private TransferDispatched dispatch(String transferId, String requestEventId, long epoch, List<ByteRange> ranges) {
    var state = fleet.state();
    var request = new TransferRequested(transferId, "prefill-0", epoch, "kv_data-0", "decode-0", 1, "kv_data-0",
        TransferOp.WRITE, ranges, System.currentTimeMillis() + 60_000, false);
    var destination = state.region("decode-0", "kv_data-0").orElseThrow();
    var order = new TransferOrder(request, state.region("prefill-0", "kv_data-0").orElseThrow().spec(),
        destination.spec(), destination.remoteKeys(), "", requestEventId);
    return Decision.Dispatch.of("coordinator-test", order).event();
  }
}
