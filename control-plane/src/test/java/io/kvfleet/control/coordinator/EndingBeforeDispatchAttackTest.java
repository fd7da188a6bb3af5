package io.kvfleet.control.coordinator;

import static io.kvfleet.control.coordinator.TransferDeciderTest.joined;
import static io.kvfleet.control.coordinator.TransferDeciderTest.range;
import static io.kvfleet.control.coordinator.TransferDeciderTest.registered;
import static io.kvfleet.control.coordinator.TransferDeciderTest.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EventCodec;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.TransferStatus;
import io.kvfleet.events.trust.Dispatch;
import io.kvfleet.events.trust.FleetKey;
import io.kvfleet.events.trust.KeyBinding;
import io.kvfleet.events.trust.Role;
import io.kvfleet.events.trust.SignedDocument;
import io.kvfleet.events.trust.TrustFile;
import io.kvfleet.events.trust.Verdict;
import io.kvfleet.events.trust.Verifier;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Red team (att2). docs/SECURITY.md: a node key may write "{@code transfer.completed} and {@code transfer.failed} of
 * transfers <i>dispatched</i> to its node". The Verifier asks only whom the transfer was <i>requested</i> of
 * (Coordinator.refusal: {@code state.transfer(id).map(t -> t.request().sourceNode())}, whatever its status), and the
 * fold ends a REQUESTED transfer on a completion ({@code Transfers.end} checks only that it has not ended). So the
 * source node's key completes a transfer the coordinator never dispatched, here one it rejects OUT_OF_BOUNDS (a
 * range past the destination's region): read before the coordinator's rejection, the completion is the transfer's
 * one ending, COMPLETED with the bytes the node says, and the coordinator's own rejection is folded as a second
 * ending and dropped. The router is told the KV arrived for a request the fleet refused to run.
 */
class EndingBeforeDispatchAttackTest {
  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
  private static final EventCodec CODEC = new EventCodec();
  private final FleetKey prefill = FleetKey.generate("prefill-0");
  private final Verifier verifier = Verifier.against(TrustFile.of(
      new KeyBinding("prefill-0", prefill.publicKey(), Role.NODE, Set.of("prefill-0"), Set.of("prefill-0"))));
  private final FleetState state = new FleetState();
  private long sequence;

  @Test
  void aSourceNodeMayNotCompleteATransferTheCoordinatorNeverDispatched() {
    for (FleetEvent e : List.of(joined("prefill-0", 3, "ucx"), joined("decode-0", 4, "ucx"),
        new PeerHeartbeat("prefill-0", 3, 60_000), new PeerHeartbeat("decode-0", 4, 60_000),
        registered("prefill-0", 3, "kv", 4096, "ucx"), registered("decode-0", 4, "kv", 4096, "ucx"))) {
      state.apply(envelope("setup", e));
    }
    // Past the destination's 64 pages: the coordinator rejects it OUT_OF_BOUNDS and never dispatches it.
    state.apply(envelope("router-0", request("t-1", 3, 4, range(0, 64 * 4096, 4096))));
    assertThat(new TransferDecider("coordinator-t").decide(state, state.transfer("t-1").orElseThrow().request(), NOW))
        .as("what the coordinator decides").isInstanceOf(Decision.Reject.class);

    var completion = envelope("prefill-0", new TransferCompleted("t-1", "prefill-0", 4096, 1_000, "host/shm", ""));
    byte[] raw = SignedDocument.sign(CODEC.encode(completion), prefill);
    var verdict = verifier.check(raw, ((Decoded.Event) CODEC.decode(raw)).envelope(),
        Dispatch.in(state)); // Coordinator.refusal's question (on main: the source node, whatever the status)

    assertThat(verdict).as("prefill-0's signed completion of a transfer never dispatched to it")
        .isInstanceOf(Verdict.Refused.class);
    state.apply(completion);
    assertThat(state.transfer("t-1").orElseThrow().status()).as("t-1 after the node's word alone")
        .isNotEqualTo(TransferStatus.COMPLETED);
  }

  private Envelope envelope(String producer, FleetEvent event) {
    sequence++;
    return new Envelope("e-" + sequence, producer, 1, sequence, NOW, "", event);
  }
}
