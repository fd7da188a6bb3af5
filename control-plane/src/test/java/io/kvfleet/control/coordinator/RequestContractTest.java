package io.kvfleet.control.coordinator;

import static io.kvfleet.control.coordinator.HybridLayouts.DECODE;
import static io.kvfleet.control.coordinator.HybridLayouts.PREFILL;
import static io.kvfleet.control.coordinator.HybridLayouts.hybrid;
import static io.kvfleet.control.coordinator.HybridLayouts.request;
import static io.kvfleet.control.coordinator.HybridLayouts.with;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.protocol.OrderPart;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionDeregistered;
import io.kvfleet.events.RequestPart;
import io.kvfleet.events.TransferRequested;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The contract check of a request transfer: every rejection reason with its explanation, and the expansion. */
class RequestContractTest {
  private final HybridLayouts fleet = new HybridLayouts();

  private RequestContract.Result check(TransferRequested request) {
    return RequestContract.check(fleet.state(), request);
  }

  private static void assertBroken(RequestContract.Result result, String reason, String detail) {
    assertThat(result).isInstanceOfSatisfying(RequestContract.Result.Broken.class, b -> {
      assertThat(b.reason()).isEqualTo(reason);
      assertThat(b.detail()).isEqualTo(detail);
    });
  }

  @Test
  void expandsACompleteRequestOverEveryBufferOfEveryComponent() {
    fleet.pair(hybrid(), hybrid());

    var result = check(request(hybrid(), 1, 2));

    assertThat(result).isInstanceOfSatisfying(RequestContract.Result.Expanded.class, e -> {
      assertThat(e.parts()).extracting(p -> p.component() + "/" + p.buffer())
          .containsExactly("kv/0", "kv/1", "kv/2", "kv/3", "conv/0", "conv/1", "ssm/0", "ssm/1", "aux/0");
      assertThat(e.parts().getFirst().ranges()).containsExactly(new ByteRange(64, 128, 64));
      assertThat(e.parts().getFirst().destination().regionId()).isEqualTo("kv-0");
      assertThat(e.parts().getFirst().destinationKeys()).containsEntry("ucx", "rkey-decode-0-kv-0");
      assertThat(e.parts().stream().mapToLong(OrderPart::bytes).sum()).isEqualTo(4 * 64 + 2 * 32 + 2 * 48 + 16);
    });
  }

  @Test
  void joinsConsecutivePagesIntoOneRangePerRun() {
    fleet.pair(hybrid(), hybrid());
    var parts = List.of(new RequestPart("kv", List.of(0, 1, 2, 5), List.of(3, 4, 5, 7)),
        new RequestPart("conv", List.of(0), List.of(0)), new RequestPart("ssm", List.of(0), List.of(0)),
        new RequestPart("aux", List.of(0), List.of(0)));

    var result = (RequestContract.Result.Expanded) check(request(parts, List.of()));

    assertThat(result.parts().getFirst().ranges())
        .containsExactly(new ByteRange(0, 3 * 64, 3 * 64), new ByteRange(5 * 64, 7 * 64, 64));
  }

  @Test
  void waitsForTheLayoutOfANodeThatHasDeclaredNone() {
    var state = new HybridLayouts().node(PREFILL, 3, "m", 0, 1, hybrid())
        .add(new io.kvfleet.events.PeerJoined(DECODE, 4, "h", "addr", List.of())).state();

    var result = RequestContract.check(state, request(hybrid(), 0, 0));

    assertThat(result).isInstanceOfSatisfying(RequestContract.Result.Broken.class, b -> {
      assertThat(b.stateMayBeBehind()).isTrue();
      assertThat(b.reason()).isEqualTo(ReasonCodes.NO_LAYOUT);
      assertThat(b.detail()).isEqualTo("decode-0 has declared no model layout at its current epoch, so the components"
          + " of request room-1 cannot be checked");
    });
  }

  @Test
  void rejectsLayoutsOfDifferentModels() {
    fleet.node(PREFILL, 3, "m", 0, 1, hybrid()).node(DECODE, 4, "other", 0, 1, hybrid());

    assertBroken(check(request(hybrid(), 0, 0)), ReasonCodes.MODEL_MISMATCH, "prefill-0 serves m, decode-0 serves other");
  }

  @Test
  void rejectsTensorParallelLayoutsThatCannotBeMapped() {
    fleet.node(PREFILL, 3, "m", 0, 2, hybrid()).node(DECODE, 4, "m", 0, 1, hybrid());

    assertBroken(check(request(hybrid(), 0, 0)), ReasonCodes.TP_UNSUPPORTED, "prefill-0 is TP rank 0 of 2, decode-0 is"
        + " TP rank 0 of 1; supported: equal TP size and rank on both nodes");
  }

  @Test
  void rejectsADestinationThatRegisteredTheConvStateButNotTheSsmState() {
    fleet.pair(hybrid(), with(hybrid(), "ssm", c -> null));

    assertBroken(check(request(hybrid(), 0, 0)), ReasonCodes.COMPONENT_ONE_SIDED, "component 'ssm' (STATE, 2 buffers)"
        + " is in prefill-0's layout but decode-0 registered no ssm state; decode-0 has [kv, conv, aux]");
  }

  @Test
  void rejectsAComponentWithFewerBuffersOnOneSide() {
    fleet.pair(hybrid(), with(hybrid(), "kv", c -> c.buffers(3)));

    assertBroken(check(request(hybrid(), 0, 0)), ReasonCodes.BUFFER_COUNT_MISMATCH, "component 'kv': prefill-0 has 4"
        + " buffers, decode-0 has 3; buffer 3 (layer 3) has no counterpart on decode-0");
  }

  @Test
  void rejectsDifferentItemLengths() {
    fleet.pair(hybrid(), with(hybrid(), "ssm", c -> c.item(96)));

    assertBroken(check(request(hybrid(), 0, 0)), ReasonCodes.ITEM_LENGTH_MISMATCH,
        "component 'ssm': item length 48 B on prefill-0, 96 B on decode-0");
  }

  @Test
  void rejectsDifferentPageSizes() {
    fleet.pair(hybrid(), with(hybrid(), "kv", c -> c.pageSize(32)));

    assertBroken(check(request(hybrid(), 0, 0)), ReasonCodes.PAGE_SIZE_MISMATCH,
        "component 'kv': page size 16 tokens on prefill-0, 32 on decode-0");
  }

  @Test
  void rejectsDifferentDtypes() {
    fleet.pair(hybrid(), with(hybrid(), "ssm", c -> c.dtype("bfloat16")));

    assertBroken(check(request(hybrid(), 0, 0)), ReasonCodes.DTYPE_MISMATCH,
        "component 'ssm': prefill-0 has STATE VRAM float32, decode-0 has STATE VRAM bfloat16");
  }

  @Test
  void rejectsARequestThatLeavesOutAStateComponentTheDestinationNeeds() {
    fleet.pair(hybrid(), hybrid());

    assertBroken(check(request(with(hybrid(), "ssm", c -> null), 0, 0)), ReasonCodes.COMPONENT_MISSING,
        "decode-0's layout needs component 'ssm' (STATE, 2 buffers), which request room-1 leaves out; name it, or"
            + " list it under recomputed if decode-0 recomputes it");
  }

  @Test
  void acceptsALeftOutComponentTheRequestSaysTheDestinationRecomputes() {
    fleet.pair(hybrid(), hybrid());
    var parts = with(hybrid(), "ssm", c -> null).stream()
        .map(c -> new RequestPart(c.name(), List.of(0), List.of(0))).toList();

    var result = check(request(parts, List.of("ssm")));

    assertThat(result).isInstanceOfSatisfying(RequestContract.Result.Expanded.class,
        e -> assertThat(e.parts()).noneMatch(p -> p.component().equals("ssm")));
  }

  @Test
  void rejectsAComponentNeitherLayoutHas() {
    fleet.pair(hybrid(), hybrid());
    var parts = new java.util.ArrayList<>(request(hybrid(), 0, 0).parts());
    parts.add(new RequestPart("swa", List.of(0), List.of(0)));

    assertBroken(check(request(parts, List.of())), ReasonCodes.UNKNOWN_COMPONENT, "the request names component 'swa',"
        + " which prefill-0's layout does not have; the layouts have [kv, conv, ssm, aux]");
  }

  @Test
  void rejectsASourceIndexPastTheRegisteredPages() {
    fleet.pair(hybrid(), hybrid());

    assertBroken(check(request(hybrid(), 8, 0)), ReasonCodes.INDEX_OUT_OF_RANGE, "component 'kv' buffer 0 (layer 0):"
        + " source index 8 is past prefill-0's 8 registered pages (region kv-0, 512 B / 64 B)");
  }

  @Test
  void rejectsADestinationSlotPastTheRegisteredSlotsNamingTheBuffer() {
    fleet.pair(hybrid(), with(hybrid(), "ssm", c -> c.slots(2)));

    assertBroken(check(request(hybrid(), 0, 3)), ReasonCodes.INDEX_OUT_OF_RANGE, "component 'ssm' buffer 0 (layer 0):"
        + " destination index 3 is past decode-0's 2 registered slots (region ssm-0, 96 B / 48 B)");
  }

  @Test
  void rejectsAPartWithoutPairwiseIndices() {
    fleet.pair(hybrid(), hybrid());
    var parts = List.of(new RequestPart("kv", List.of(0, 1), List.of(0)), new RequestPart("conv", List.of(0), List.of(0)),
        new RequestPart("ssm", List.of(0), List.of(0)), new RequestPart("aux", List.of(0), List.of(0)));

    assertBroken(check(request(parts, List.of())), ReasonCodes.INDEX_COUNT_MISMATCH,
        "component 'kv': 2 source indices and 1 destination indices; give at least one, pairwise");
  }

  @Test
  void rejectsARequestTransferThatReadsOrAlsoNamesRanges() {
    fleet.pair(hybrid(), hybrid());
    var valid = request(hybrid(), 0, 0);
    var read = new TransferRequested(valid.transferId(), valid.sourceNode(), valid.sourceEpoch(), "",
        valid.destinationNode(), valid.destinationEpoch(), "", io.kvfleet.events.TransferOp.READ,
        List.of(new ByteRange(0, 0, 64)), valid.deadlineMillis(), false, valid.requestId(), valid.parts(), List.of());

    assertBroken(check(read), ReasonCodes.INVALID_REQUEST_FORM, "a request transfer is a WRITE that names no regions"
        + " or ranges (the parts say what moves); this one is a READ naming regions '' and '' and 1 ranges");
  }

  @Test
  void rejectsABufferWhoseRegionWasReleasedNamingComponentAndBuffer() {
    fleet.pair(hybrid(), hybrid()).add(new RegionDeregistered(DECODE, 4, "conv-1", "ucx", "test"));

    var result = check(request(hybrid(), 0, 0));

    assertThat(result).isInstanceOfSatisfying(RequestContract.Result.Broken.class, b -> {
      assertThat(b.reason()).isEqualTo(ReasonCodes.UNKNOWN_REGION);
      assertThat(b.detail()).isEqualTo("component 'conv' buffer 1 (layer 1): region conv-1 of decode-0 is not"
          + " registered at its current epoch");
    });
  }

  @Test
  void theDeciderDispatchesACheckedRequestAsOneOrderWithEveryPart() {
    fleet.pair(hybrid(), hybrid());

    var decision = new TransferDecider("c-t").decide(fleet.state(), request(hybrid(), 0, 1), HybridLayouts.NOW);

    assertThat(decision).isInstanceOfSatisfying(Decision.Dispatch.class, d -> {
      assertThat(d.order().parts()).hasSize(9);
      assertThat(d.order().destinationTransport()).isEqualTo("addr-decode-0");
    });
  }

  @Test
  void theDeciderRejectsABrokenContractBeforeDispatch() {
    fleet.pair(hybrid(), with(hybrid(), "ssm", c -> null));

    var decision = new TransferDecider("c-t").decide(fleet.state(), request(hybrid(), 0, 1), HybridLayouts.NOW);

    assertThat(decision).isInstanceOfSatisfying(Decision.Reject.class,
        r -> assertThat(r.event().reason()).isEqualTo(ReasonCodes.COMPONENT_ONE_SIDED));
  }
}
