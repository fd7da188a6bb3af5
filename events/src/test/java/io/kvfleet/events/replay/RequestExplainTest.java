package io.kvfleet.events.replay;

import static io.kvfleet.events.replay.Script.joined;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.PartOutcome;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.Samples;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferRejected;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code explain transfer} of a request transfer: its parts, the layouts it was judged against, its end. */
class RequestExplainTest {

  /** prefill-0 and decode-0 with their layouts; decode-0's without the conv state unless {@code whole}. */
  private static Script pair(boolean whole) {
    String destinationLayoutNode = "decode-0";
    var full = Samples.layout(destinationLayoutNode, 3);
    var convOnly = whole ? full : new io.kvfleet.events.ModelLayoutDeclared(destinationLayoutNode, 3, full.modelId(),
        0, 1, full.components().stream().filter(c -> !c.name().equals("conv")).toList());
    return new Script()
        .at("10:40:00").node("prefill-0", 5, joined("prefill-0", 5)).node("prefill-0", 5, Samples.layout("prefill-0", 5))
        .node(destinationLayoutNode, 3, joined(destinationLayoutNode, 3)).node(destinationLayoutNode, 3, convOnly);
  }

  private static Explanation explain(Script script, String id) {
    var target = new ExplainTarget.Transfer(id);
    return script.replay(ReplayOptions.defaults().explaining(target)).explain(target);
  }

  @Test
  void tellsARejectedRequestTransfersStoryWithBothLayoutsAndTheBrokenTerm() {
    var script = pair(false)
        .at("10:40:01").event("router-0", 1, Samples.requestTransfer("r-1", "prefill-0", 5, "decode-0", 3))
        .event("coordinator-0", 1, new TransferRejected("r-1", "prefill-0", ReasonCodes.COMPONENT_ONE_SIDED,
            "component 'conv' (STATE, 1 buffers) is in prefill-0's layout but decode-0 registered no conv state;"
                + " decode-0 has [kv, aux]"));

    var explanation = explain(script, "r-1");

    assertThat(explanation.summary()).isEqualTo("Transfer r-1 was rejected at 10:40:01.001: COMPONENT_ONE_SIDED"
        + " (component 'conv' (STATE, 1 buffers) is in prefill-0's layout but decode-0 registered no conv state;"
        + " decode-0 has [kv, aux]). Layouts: prefill-0 serves qwen3-next TP 0/1 with [kv, conv, aux]; decode-0"
        + " serves qwen3-next TP 0/1 with [kv, aux].");
    assertThat(explanation.steps()).extracting(Explanation.Step::text).containsExactly(
        "prefill-0 epoch 5 declared layout qwen3-next TP 0/1: kv (KV VRAM, 2 buffers of 16.0 KiB items, page 16,"
            + " bfloat16), conv (STATE VRAM, 1 buffers of 8.0 KiB items, page 1, bfloat16), aux (AUX DRAM, 1 buffers"
            + " of 512 B items, page 1, int32)",
        "decode-0 epoch 3 declared layout qwen3-next TP 0/1: kv (KV VRAM, 2 buffers of 16.0 KiB items, page 16,"
            + " bfloat16), aux (AUX DRAM, 1 buffers of 512 B items, page 1, int32)",
        "r-1 requested for request room-1: prefill-0 epoch 5 to decode-0 epoch 3, parts kv [0, 1]->[2, 3],"
            + " conv [1]->[0], aux [1]->[0] (by router-0)",
        "r-1 rejected (by coordinator-0): COMPONENT_ONE_SIDED: component 'conv' (STATE, 1 buffers) is in"
            + " prefill-0's layout but decode-0 registered no conv state; decode-0 has [kv, aux]");
  }

  @Test
  void tellsACompletedRequestTransfersPartsWithBytesAndChecksums() {
    var script = pair(true)
        .at("10:40:01").event("router-0", 1, Samples.requestTransfer("r-2", "prefill-0", 5, "decode-0", 3))
        .event("coordinator-0", 1, new TransferDispatched("r-2", "prefill-0", "coordinator-0"))
        .event("prefill-0", 5, new TransferCompleted("r-2", "prefill-0", 66_048, 250_000, "ucx/sysv", "", List.of(
            new PartOutcome("kv", 2, 65_536, "0a0b0c0d"), new PartOutcome("conv", 1, 0, ""),
            new PartOutcome("aux", 1, 512, "01020304"))));

    var explanation = explain(script, "r-2");

    assertThat(explanation.summary()).isEqualTo("Transfer r-2 completed at 10:40:01.002: 64.5 KiB via ucx/sysv."
        + " Layouts: prefill-0 serves qwen3-next TP 0/1 with [kv, conv, aux]; decode-0 serves qwen3-next TP 0/1 with"
        + " [kv, conv, aux].");
    assertThat(explanation.steps()).extracting(Explanation.Step::text).last().isEqualTo(
        "r-2 completed: 64.5 KiB in 0.250 ms via ucx/sysv; kv 2 buffers 64.0 KiB crc 0a0b0c0d, conv 1 buffers 0 B,"
            + " aux 1 buffers 512 B crc 01020304 (by prefill-0)");
  }
}
