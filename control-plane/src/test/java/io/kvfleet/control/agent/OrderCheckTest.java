package io.kvfleet.control.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.protocol.OrderKeys;
import io.kvfleet.control.protocol.OrderSignature;
import io.kvfleet.control.protocol.TransferOrder;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which dispatches an agent runs: an order for this node at its epoch, signed by a coordinator key where required. */
class OrderCheckTest {
  private static final RegionSpec KV = new RegionSpec("kv_data-0", RegionKind.KV, MemoryType.DRAM, -1, 0, 1 << 20,
      4096, "kv_data", 0);
  private final KeyPair coordinator = generate();
  private final OrderKeys keys = new OrderKeys(Map.of("coordinator-key", coordinator.getPublic()), Optional.empty());

  @Test
  void runsADispatchToItsEpochWhenNoKeysAreConfigured() {
    assertThat(OrderCheck.refusal(dispatch("prefill-0", 7, 7), "prefill-0", 7, OrderKeys.none())).isEmpty();
  }

  @Test
  void refusesADispatchToAnotherEpoch() {
    assertThat(reason(OrderCheck.refusal(dispatch("prefill-0", 6, 6), "prefill-0", 7, OrderKeys.none())))
        .isEqualTo(ReasonCodes.ORDER_WRONG_EPOCH);
  }

  @Test
  void refusesADispatchWithoutAnOrder() {
    assertThat(reason(OrderCheck.refusal(new TransferDispatched("t-1", "prefill-0", "c"), "prefill-0", 7,
        OrderKeys.none()))).isEqualTo(ReasonCodes.ORDER_MALFORMED);
  }

  @Test
  void refusesADispatchWhoseOrderNamesAnotherEpochOrNode() {
    assertThat(reason(OrderCheck.refusal(dispatch("prefill-0", 7, 6), "prefill-0", 7, OrderKeys.none())))
        .isEqualTo(ReasonCodes.ORDER_MALFORMED);
    assertThat(reason(OrderCheck.refusal(dispatch("prefill-1", 7, 7), "prefill-0", 7, OrderKeys.none())))
        .isEqualTo(ReasonCodes.ORDER_MALFORMED);
  }

  @Test
  void withCoordinatorKeysRunsOnlyWhatOneOfThemSigned() {
    var good = OrderSignature.sign(dispatch("prefill-0", 7, 7), "coordinator-key", coordinator.getPrivate());
    var stranger = generate();

    assertThat(OrderCheck.refusal(good, "prefill-0", 7, keys)).isEmpty();
    assertThat(reason(OrderCheck.refusal(dispatch("prefill-0", 7, 7), "prefill-0", 7, keys)))
        .isEqualTo(ReasonCodes.ORDER_UNSIGNED);
    assertThat(reason(OrderCheck.refusal(OrderSignature.sign(dispatch("prefill-0", 7, 7), "router-key",
        stranger.getPrivate()), "prefill-0", 7, keys))).isEqualTo(ReasonCodes.ORDER_KEY_UNKNOWN);
    assertThat(reason(OrderCheck.refusal(OrderSignature.sign(dispatch("prefill-0", 7, 7), "coordinator-key",
        stranger.getPrivate()), "prefill-0", 7, keys))).isEqualTo(ReasonCodes.ORDER_SIGNATURE_INVALID);
  }

  @Test
  void checksTheEpochBeforeTheSignature() {
    var signedForAnother = OrderSignature.sign(dispatch("prefill-0", 6, 6), "coordinator-key", coordinator.getPrivate());

    assertThat(reason(OrderCheck.refusal(signedForAnother, "prefill-0", 7, keys))).isEqualTo(ReasonCodes.ORDER_WRONG_EPOCH);
  }

  private static String reason(Optional<OrderCheck.Refusal> refusal) {
    return refusal.orElseThrow().reason();
  }

  /** A dispatch to {@code node} at {@code epoch} whose order's request names {@code requestEpoch}. */
  private static TransferDispatched dispatch(String node, long epoch, long requestEpoch) {
    var request = new TransferRequested("t-1", node, requestEpoch, "kv_data-0", "decode-0", 2, "kv_data-0",
        TransferOp.WRITE, List.of(new ByteRange(0, 0, 4096)), 1_000, false);
    var order = new TransferOrder(request, KV, KV, Map.of("ucx", "a2V5"), "", "envelope-1");
    return new TransferDispatched("t-1", node, "coordinator-0", epoch, order.dispatched(), "", "");
  }

  private static KeyPair generate() {
    try {
      return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }
}
