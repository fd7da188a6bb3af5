package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.ByteRange;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.state.FleetState;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class WaitingRequestsTest {
  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
  private final TransferDecider decider = new TransferDecider("c");
  private final WaitingRequests waiting = new WaitingRequests();
  private final TransferRequested request = new TransferRequested("t1", "prefill-0", 1, "kv", "decode-0", 1, "kv",
      TransferOp.WRITE, List.of(new ByteRange(0, 0, 4096)), NOW.plusSeconds(60).toEpochMilli(), false);

  @Test
  void keepsARequestWhileItsGraceLastsThenRejectsItWithItsReason() {
    var wait = (Decision.Wait) decider.decide(new FleetState(), request, NOW);
    waiting.add(request, wait, NOW);
    assertThat(waiting.retry(decider, new FleetState(), NOW.plusMillis(500))).isEmpty();
    var decided = waiting.retry(decider, new FleetState(), NOW.plus(WaitingRequests.GRACE).plusMillis(1));
    assertThat(decided).singleElement().isInstanceOfSatisfying(Decision.Reject.class,
        r -> assertThat(r.event()).isEqualTo(wait.ifStill()));
    assertThat(waiting.isEmpty()).isTrue();
  }

  @Test
  void decidesAgainWhenTheStateCatchesUp() {
    waiting.add(request, (Decision.Wait) decider.decide(new FleetState(), request, NOW), NOW);
    var state = new FleetState();
    state.apply(new Envelope("e1", "prefill-0", 1, 1, NOW, "", new PeerJoined("prefill-0", 1, "h", "", List.of())));
    var decided = waiting.retry(decider, state, NOW.plusMillis(100));
    // Still waiting: decode-0 has not joined yet.
    assertThat(decided).isEmpty();
    assertThat(waiting.isEmpty()).isFalse();
    assertThat(((Decision.Wait) decider.decide(state, request, NOW)).ifStill())
        .extracting(TransferRejected::detail).asString().contains("decode-0");
  }
}
