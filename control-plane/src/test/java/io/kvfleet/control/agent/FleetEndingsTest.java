package io.kvfleet.control.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferFailed;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class FleetEndingsTest {
  private final AtomicLong now = new AtomicLong();
  private final FleetEndings endings = new FleetEndings(now::get);

  @Test
  void anEndingIsHeldUntilARequestStartsItsIdAnewOrItGrowsOld() {
    endings.read(new TransferFailed("t-1", "prefill-0", ReasonCodes.PEER_LOST, 0, ""), "coordinator-0");
    endings.read(new TransferFailed("t-2", "prefill-0", ReasonCodes.PEER_LOST, 0, ""), "coordinator-0");
    endings.requested("t-1");

    assertThat(endings.of("t-1")).isEmpty();
    assertThat(endings.of("t-2")).contains("transfer.failed PEER_LOST by coordinator-0");

    now.addAndGet(FleetEndings.HELD.toNanos());
    assertThat(endings.of("t-2")).isEmpty();
    assertThat(endings.any()).as("nothing held: requests are skipped again").isFalse();
  }

  @Test
  void aCompletionEndsNothingHere() {
    endings.read(new TransferCompleted("t-1", "prefill-0", 1, 1, "host", ""), "prefill-0");

    assertThat(endings.any()).isFalse();
  }

  @Test
  void itHoldsAtMostKeptEndingsTheOldestGoFirst() {
    for (int i = 0; i <= FleetEndings.KEPT; i++) {
      endings.read(new TransferFailed("t-" + i, "prefill-0", ReasonCodes.PEER_LOST, 0, ""), "coordinator-0");
    }

    assertThat(endings.of("t-0")).isEmpty();
    assertThat(endings.of("t-1")).isPresent();
    assertThat(endings.of("t-" + FleetEndings.KEPT)).isPresent();
  }
}
