package io.kvfleet.control.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.ByteRange;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EventCodec;
import io.kvfleet.events.Envelope;
import java.nio.charset.StandardCharsets;
import io.kvfleet.events.trust.FleetKey;
import io.kvfleet.events.trust.KeyBinding;
import io.kvfleet.events.trust.KeyCheck;
import io.kvfleet.events.trust.Role;
import io.kvfleet.events.trust.TrustFile;
import java.util.Set;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The coordinator's signature over a dispatched order covers every term of it, and survives the wire. */
class OrderSignatureTest {
  private static final RegionSpec KV = new RegionSpec("kv_data-0", RegionKind.KV, MemoryType.DRAM, -1, 0, 1 << 20,
      4096, "kv_data", 0);
  private final FleetKey coordinator = FleetKey.generate("c");
  private final TrustFile trust = TrustFile.of(new KeyBinding("c", coordinator.publicKey(), Role.COORDINATOR,
      Set.of("coordinator-0"), Set.of()));

  @Test
  void aSignedOrderChecksAgainstItsKeyAndNoOther() {
    var signed = OrderSignature.sign(dispatch(3, List.of(new ByteRange(0, 0, 4096))), coordinator);
    var impostor = TrustFile.of(new KeyBinding("c", FleetKey.generate("c").publicKey(), Role.COORDINATOR,
        Set.of("coordinator-0"), Set.of()));

    assertThat(signed.orderKeyId()).isEqualTo("c");
    assertThat(OrderSignature.check(signed, trust)).isInstanceOf(KeyCheck.Verified.class);
    assertThat(OrderSignature.check(signed, impostor)).isInstanceOf(KeyCheck.BadSignature.class);
    assertThat(OrderSignature.check(signed, TrustFile.empty())).isInstanceOf(KeyCheck.UnknownKey.class);
  }

  @Test
  void changingAnyTermOfTheOrderBreaksTheSignature() {
    var signed = OrderSignature.sign(dispatch(3, List.of(new ByteRange(0, 0, 4096))), coordinator);
    var otherRanges = dispatch(3, List.of(new ByteRange(0, 4096, 4096)))
        .signed(signed.orderKeyId(), signed.orderSignature());
    var otherEpoch = new TransferDispatched(signed.transferId(), signed.sourceNode(), signed.coordinatorId(), 4,
        signed.order(), signed.orderKeyId(), signed.orderSignature());
    var otherCoordinator = new TransferDispatched(signed.transferId(), signed.sourceNode(), "coordinator-x", 3,
        signed.order(), signed.orderKeyId(), signed.orderSignature());

    assertThat(List.of(otherRanges, otherEpoch, otherCoordinator))
        .allSatisfy(d -> assertThat(OrderSignature.check(d, trust)).isInstanceOf(KeyCheck.BadSignature.class));
  }

  @Test
  void aSignatureThatIsNotBase64DoesNotCheck() {
    var garbled = dispatch(3, List.of(new ByteRange(0, 0, 4096))).signed("c", "not base64 !");

    assertThat(OrderSignature.check(garbled, trust)).isInstanceOf(KeyCheck.BadSignature.class);
  }

  @Test
  void aSignedDispatchStillChecksAfterKafkasCodec() {
    var signed = OrderSignature.sign(dispatch(3, List.of(new ByteRange(0, 0, 4096))), coordinator);
    var codec = new EventCodec();

    var read = ((Decoded.Event) codec.decode(codec.encode(Envelope.of("coordinator-0", 1, 1, Instant.now(), "",
        signed)))).envelope().data();

    assertThat(OrderSignature.check((TransferDispatched) read, trust)).isInstanceOf(KeyCheck.Verified.class);
  }

  @Test
  void theCanonicalFormSortsKeysSoMapOrderDoesNotMatter() {
    Map<String, String> one = new LinkedHashMap<>();
    one.put("ucx", "a");
    one.put("host", "b");
    Map<String, String> other = new LinkedHashMap<>();
    other.put("host", "b");
    other.put("ucx", "a");

    String canonical = new String(OrderSignature.canonical(dispatch(3, List.of(), one)), StandardCharsets.UTF_8);

    assertThat(canonical).isEqualTo(new String(OrderSignature.canonical(dispatch(3, List.of(), other)),
        StandardCharsets.UTF_8));
    assertThat(canonical).startsWith("{\"coordinatorId\":\"coordinator-0\",\"domain\":\"kvfleet-order-v1\",\"order\":{")
        .contains("\"destinationKeys\":{\"host\":\"b\",\"ucx\":\"a\"}")
        .endsWith("\"sourceEpoch\":3,\"sourceNode\":\"prefill-0\",\"transferId\":\"t-1\"}");
  }

  private static TransferDispatched dispatch(long epoch, List<ByteRange> ranges) {
    return dispatch(epoch, ranges, Map.of("ucx", "a2V5"));
  }

  private static TransferDispatched dispatch(long epoch, List<ByteRange> ranges, Map<String, String> keys) {
    var request = new TransferRequested("t-1", "prefill-0", epoch, "kv_data-0", "decode-0", 2, "kv_data-0",
        TransferOp.WRITE, ranges, 1_000, true);
    var order = new TransferOrder(request, KV, KV, keys, "dHJhbnNwb3J0", "envelope-1");
    return new TransferDispatched("t-1", "prefill-0", "coordinator-0", epoch, order.dispatched(), "", "");
  }
}
