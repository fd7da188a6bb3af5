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
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EventCodec;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.trust.FleetKey;
import io.kvfleet.events.trust.KeyBinding;
import io.kvfleet.events.trust.Role;
import io.kvfleet.events.trust.SignedDocument;
import io.kvfleet.events.trust.TrustFile;
import io.kvfleet.events.trust.Verdict;
import io.kvfleet.events.trust.Verifier;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Red team (att2). The coordinator's fold forgets an ended transfer {@link Coordinator#DEFAULT_KEEP_ENDED} of
 * <i>log time</i> after it ended, and log time is whatever the envelope being folded says
 * ({@code FleetState.apply} calls {@code Transfers.forgetEndedBefore(at.time())} for every record; nothing bounds
 * the envelope's {@code time}). So one record with a far-future time, or an ending with a far-past one, written by
 * any producer the trust file lets write <i>anything</i> (here a node's own signed heartbeat, which the Verifier
 * rightly trusts), makes the coordinator forget every ended transfer of the whole fleet at once. A router's retry
 * of a transfer that already completed (the case DUPLICATE_TRANSFER / AlreadyAnswered exists for) is then decided
 * as a new transfer and dispatched again: the transfer id gets a second dispatch and a second ending, and the
 * source agent runs it (its de-duplication is per request record), moving the bytes a second time. A node with a
 * broken clock does the same without any intent. Mirrors Coordinator.fold: verify, hasSeen, apply, deciding.read.
 */
class EnvelopeTimeForgetsEndedAttackTest {
  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
  private static final int PARTITIONS = 3;
  private static final EventCodec CODEC = new EventCodec();
  private final FleetKey prefill = FleetKey.generate("prefill-0");
  private final Verifier verifier = Verifier.against(TrustFile.of(
      new KeyBinding("prefill-0", prefill.publicKey(), Role.NODE, Set.of("prefill-0"), Set.of("prefill-0"))));
  private final Deciding deciding = new Deciding("coordinator-t", verifier);
  private final FleetState state = FleetState.keepingEnded(Coordinator.DEFAULT_KEEP_ENDED);
  private final Ownership whole = Ownership.whole(PARTITIONS);
  private long sequence;

  @Test
  void controlARetryOfACompletedTransferWithHonestTimesIsNotDispatchedAgain() {
    var first = completedTransfer();
    fold(envelope("prefill-0", NOW.plusSeconds(1), new PeerHeartbeat("prefill-0", 3, 60_000)));

    var retry = fold(envelope("router-0", NOW.plusSeconds(2), first));

    assertThat(retry).as("the same retry without the skewed record (passes on main: the attack is what breaks it)")
        .extracting(a -> a.getClass().getSimpleName()).doesNotContain("Dispatch");
  }

  @Test
  void aNodesFarFutureHeartbeatDoesNotLetARetriedCompletedRequestBeDispatchedAgain() {
    var first = completedTransfer();

    // prefill-0's own key signs its own heartbeat, timed a year ahead: every check passes.
    var heartbeat = envelope("prefill-0", NOW.plus(Duration.ofDays(365)), new PeerHeartbeat("prefill-0", 3, 60_000));
    assertThat(verify(heartbeat)).as("the node's signed heartbeat").isInstanceOf(Verdict.Trusted.class);
    fold(heartbeat);

    // One second later the router retries the request it had no answer to (a new record, the same transfer).
    var retry = fold(envelope("router-0", NOW.plusSeconds(1), first));

    assertThat(retry).as("what the coordinator does on the retry of a completed transfer, within its keep-ended window")
        .extracting(a -> a.getClass().getSimpleName()).doesNotContain("Dispatch");
  }

  @Test
  void aNodesFarPastCompletionDoesNotLetARetriedRequestBeDispatchedAgain() {
    var first = request("t-1", 3, 4, range(0, 0, 4096));
    var dispatch = fold(envelope("router-0", NOW, first));
    assertThat(dispatch).singleElement().isInstanceOf(Decision.Dispatch.class);
    fold(envelope("coordinator-t", NOW, ((Decision.Dispatch) dispatch.getFirst()).event()));
    // The source agent's own signed completion, timed 1970: the transfer ended "long ago" for the fold.
    var done = envelope("prefill-0", Instant.EPOCH, new TransferCompleted("t-1", "prefill-0", 4096, 1_000, "host/shm", ""));
    assertThat(verify(done)).as("the source node's signed completion").isInstanceOf(Verdict.Trusted.class);
    fold(done);
    fold(envelope("prefill-0", NOW.plusSeconds(1), new PeerHeartbeat("prefill-0", 3, 60_000)));

    var retry = fold(envelope("router-0", NOW.plusSeconds(2), first));

    assertThat(retry).as("what the coordinator does on a retry two seconds after the transfer completed")
        .extracting(a -> a.getClass().getSimpleName()).doesNotContain("Dispatch");
  }

  /** Two live nodes with a region each, and t-1 requested, dispatched and completed at NOW. */
  private TransferRequested completedTransfer() {
    var first = request("t-1", 3, 4, range(0, 0, 4096));
    var dispatch = fold(envelope("router-0", NOW, first));
    assertThat(dispatch).singleElement().isInstanceOf(Decision.Dispatch.class);
    fold(envelope("coordinator-t", NOW, ((Decision.Dispatch) dispatch.getFirst()).event()));
    fold(envelope("prefill-0", NOW, new TransferCompleted("t-1", "prefill-0", 4096, 1_000, "host/shm", "")));
    assertThat(state.transfer("t-1")).as("t-1, ended and held").isPresent();
    return first;
  }

  private Envelope envelope(String producer, Instant time, FleetEvent event) {
    sequence++;
    if (sequence == 1) {
      for (FleetEvent e : List.of(joined("prefill-0", 3, "ucx"), joined("decode-0", 4, "ucx"),
          new PeerHeartbeat("prefill-0", 3, 60_000), new PeerHeartbeat("decode-0", 4, 60_000),
          registered("prefill-0", 3, "kv", 4096, "ucx"), registered("decode-0", 4, "kv", 4096, "ucx"))) {
        state.apply(new Envelope("setup-" + sequence, "setup", 1, sequence++, NOW.minusSeconds(5), "", e));
      }
    }
    return new Envelope("e-" + sequence, producer, 1, sequence, time, "", event);
  }

  /** The Verifier's verdict on {@code envelope} as its producer's key would sign it. */
  private Verdict verify(Envelope envelope) {
    byte[] raw = SignedDocument.sign(CODEC.encode(envelope), prefill);
    var decoded = (Decoded.Event) CODEC.decode(raw);
    return verifier.check(raw, decoded.envelope(), io.kvfleet.events.trust.Dispatch.in(state));
  }

  private List<Decision.Action> fold(Envelope envelope) {
    boolean redelivered = state.hasSeen(envelope.producer(), envelope.epoch(), envelope.sequence());
    state.apply(envelope);
    if (redelivered) {
      return List.of();
    }
    int partition = Ownership.partitionOf("prefill-0", PARTITIONS);
    return new ArrayList<>(deciding.read(state, envelope.data(), partition, true, whole, NOW));
  }
}
