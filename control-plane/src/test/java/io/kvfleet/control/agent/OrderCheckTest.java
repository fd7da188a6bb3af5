package io.kvfleet.control.agent;

import static org.assertj.core.api.Assertions.assertThat;

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
import io.kvfleet.events.trust.FleetKey;
import io.kvfleet.events.trust.KeyBinding;
import io.kvfleet.events.trust.Role;
import io.kvfleet.events.trust.TrustFile;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which dispatches an agent runs: an order for this node at its epoch, signed by a coordinator key where required. */
class OrderCheckTest {
  private static final RegionSpec KV = new RegionSpec("kv_data-0", RegionKind.KV, MemoryType.DRAM, -1, 0, 1 << 20,
      4096, "kv_data", 0);
  private static final Optional<TrustFile> NO_TRUST = Optional.empty();
  private final FleetKey coordinator = FleetKey.generate("coordinator-key");
  private final FleetKey router = FleetKey.generate("router-key");
  private final Optional<TrustFile> keys = Optional.of(TrustFile.of(
      new KeyBinding("coordinator-key", coordinator.publicKey(), Role.COORDINATOR, Set.of("coordinator-0"), Set.of()),
      new KeyBinding("router-key", router.publicKey(), Role.ROUTER, Set.of("coordinator-0"), Set.of())));

  @Test
  void runsADispatchToItsEpochWhenNoKeysAreConfigured() {
    assertThat(OrderCheck.refusal(dispatch("prefill-0", 7, 7), "prefill-0", 7, NO_TRUST)).isEmpty();
  }

  @Test
  void refusesADispatchToAnotherEpoch() {
    assertThat(reason(OrderCheck.refusal(dispatch("prefill-0", 6, 6), "prefill-0", 7, NO_TRUST)))
        .isEqualTo(ReasonCodes.ORDER_WRONG_EPOCH);
  }

  @Test
  void refusesADispatchWithoutAnOrder() {
    assertThat(reason(OrderCheck.refusal(new TransferDispatched("t-1", "prefill-0", "c"), "prefill-0", 7,
        NO_TRUST))).isEqualTo(ReasonCodes.ORDER_MALFORMED);
  }

  @Test
  void refusesADispatchWhoseOrderNamesAnotherEpochOrNode() {
    assertThat(reason(OrderCheck.refusal(dispatch("prefill-0", 7, 6), "prefill-0", 7, NO_TRUST)))
        .isEqualTo(ReasonCodes.ORDER_MALFORMED);
    assertThat(reason(OrderCheck.refusal(dispatch("prefill-1", 7, 7), "prefill-0", 7, NO_TRUST)))
        .isEqualTo(ReasonCodes.ORDER_MALFORMED);
  }

  @Test
  void withATrustFileRunsOnlyWhatTheDispatchingCoordinatorsKeySigned() {
    var good = OrderSignature.sign(dispatch("prefill-0", 7, 7), coordinator);

    assertThat(OrderCheck.refusal(good, "prefill-0", 7, keys)).isEmpty();
    assertThat(reason(OrderCheck.refusal(dispatch("prefill-0", 7, 7), "prefill-0", 7, keys)))
        .isEqualTo(ReasonCodes.ORDER_UNSIGNED);
    assertThat(reason(OrderCheck.refusal(OrderSignature.sign(dispatch("prefill-0", 7, 7), FleetKey.generate("other")),
        "prefill-0", 7, keys))).isEqualTo(ReasonCodes.ORDER_KEY_UNKNOWN);
    assertThat(reason(OrderCheck.refusal(OrderSignature.sign(dispatch("prefill-0", 7, 7),
        FleetKey.generate("coordinator-key")), "prefill-0", 7, keys))).isEqualTo(ReasonCodes.ORDER_SIGNATURE_INVALID);
  }

  @Test
  void refusesAnOrderSignedByAKeyThatIsNoCoordinatorsOrAnotherCoordinators() {
    var byRouter = OrderSignature.sign(dispatch("prefill-0", 7, 7), router);
    var other = new TransferDispatched("t-1", "prefill-0", "coordinator-1", 7, dispatch("prefill-0", 7, 7).order(), "",
        "");

    assertThat(reason(OrderCheck.refusal(byRouter, "prefill-0", 7, keys))).isEqualTo(ReasonCodes.ORDER_KEY_UNKNOWN);
    assertThat(reason(OrderCheck.refusal(OrderSignature.sign(other, coordinator), "prefill-0", 7, keys)))
        .isEqualTo(ReasonCodes.ORDER_KEY_UNKNOWN);
  }

  @Test
  void checksTheEpochBeforeTheSignature() {
    var signedForAnother = OrderSignature.sign(dispatch("prefill-0", 6, 6), coordinator);

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
}
