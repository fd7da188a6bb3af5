package io.kvfleet.control.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferTimedOut;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class FleetEndingsTest {
  private static final java.time.Instant T0 = java.time.Instant.parse("2026-12-07T06:00:00Z");
  private final AtomicLong now = new AtomicLong();
  private final FleetEndings endings = new FleetEndings(now::get);

  @Test
  void anEndingHoldsForItsLifeOfTheIdUntilItGrowsOld() {
    endings.read(new TransferFailed("t-1", "prefill-0", ReasonCodes.PEER_LOST, 0, ""), "coordinator-0", T0);
    endings.read(new TransferFailed("t-2", "prefill-0", ReasonCodes.PEER_LOST, 0, ""), "coordinator-0", T0);
    endings.requested("t-1", "r-later", T0.plusSeconds(1));
    endings.requested("t-1", "r-replayed", T0.minusSeconds(1)); // the ended request's record written again

    assertThat(endings.of("t-1", "r-later")).isEmpty();
    assertThat(endings.of("t-1", "r-replayed")).isPresent();
    assertThat(endings.of("t-1", "r-first")).isPresent();
    assertThat(endings.of("t-2", "r-first")).contains("transfer.failed PEER_LOST by coordinator-0");

    now.addAndGet(FleetEndings.HELD.toNanos());
    assertThat(endings.of("t-2", "r-first")).isEmpty();
    assertThat(endings.any()).as("nothing held: requests are skipped again").isFalse();
  }

  /**
   * An ending of an id past {@link FleetEndings#LONGEST} characters was dropped, so such a transfer
   * sent every page after the fleet failed it; and a later life's request id was kept cut, so its
   * orders stayed refused. Both are kept whole now, as a hash.
   */
  @Test
  void anEndingOfALongIdHoldsAndALaterLifeOfItRuns() {
    String id = "t-" + "x".repeat(FleetEndings.LONGEST);
    String laterRequest = "r-later-" + "y".repeat(FleetEndings.LONGEST);
    endings.read(new TransferFailed(id, "prefill-0", ReasonCodes.PEER_LOST, 0, ""), "coordinator-0", T0);

    assertThat(endings.of(id, "r-first")).contains("transfer.failed PEER_LOST by coordinator-0");
    assertThat(endings.of(id.substring(0, FleetEndings.LONGEST), "r-first")).as("another id").isEmpty();

    endings.requested(id, laterRequest, T0.plusSeconds(1));
    assertThat(endings.of(id, laterRequest)).isEmpty();
    assertThat(endings.of(id, laterRequest.substring(0, FleetEndings.LONGEST))).isPresent();

    // A short id spelled as the long one's key is another transfer: its ending does not end the long one.
    var other = new FleetEndings(now::get);
    other.read(new TransferRejected(FleetEndings.key(id), "prefill-0", ReasonCodes.PEER_NOT_ALIVE, ""), "c", T0);
    assertThat(other.of(id, "r-first")).isEmpty();
    assertThat(other.of(FleetEndings.key(id), "r-first")).isPresent();
  }

  @Test
  void theEndingOfALaterLifeOfTheIdEndsThatLifeToo() {
    endings.read(new TransferFailed("t-1", "prefill-0", ReasonCodes.PEER_LOST, 0, ""), "coordinator-0", T0);
    endings.requested("t-1", "r-later", T0.plusSeconds(60));
    endings.read(new TransferTimedOut("t-1", "prefill-0", 0), "coordinator-0", T0.plusSeconds(70));

    assertThat(endings.of("t-1", "r-later")).contains("transfer.timed_out by coordinator-0");
    assertThat(endings.of("t-1", "r-first")).isPresent();
  }

  @Test
  void aCompletionOrADuplicatesRejectionEndsNothingHere() {
    endings.read(new TransferCompleted("t-1", "prefill-0", 1, 1, "host", ""), "prefill-0", T0);
    // The router sent t-1 again while it ran: the coordinator answers the copy, the transfer goes on.
    endings.read(new TransferRejected("t-1", "prefill-0", ReasonCodes.DUPLICATE_TRANSFER, ""), "coordinator-0", T0);

    assertThat(endings.any()).isFalse();
  }

  @Test
  void itHoldsAtMostKeptEndingsTheOldestGoFirst() {
    for (int i = 0; i <= FleetEndings.KEPT; i++) {
      endings.read(new TransferFailed("t-" + i, "prefill-0", ReasonCodes.PEER_LOST, 0, ""), "coordinator-0", T0);
    }

    assertThat(endings.of("t-0", "")).isEmpty();
    assertThat(endings.of("t-1", "")).isPresent();
    assertThat(endings.of("t-" + FleetEndings.KEPT, "")).isPresent();
  }

  @Test
  void whatARecordSaysIsKeptOnlyInBoundedSize() {
    endings.read(new TransferFailed("t-1", "prefill-0", "x".repeat(1 << 20), 0, ""), "c".repeat(1 << 20), T0);
    // The longest id an event may carry (an event refuses a longer one): held under its hash.
    endings.read(new TransferFailed("t".repeat(1_024), "prefill-0", ReasonCodes.PEER_LOST, 0, ""), "c", T0);

    assertThat(endings.of("t-1", "")).hasValueSatisfying(what -> assertThat(what)
        .startsWith("transfer.failed (no reason code) by ccc").hasSizeLessThan(400));
    assertThat(endings.of("t".repeat(1_024), "")).as("held, under its hash").isPresent();
    assertThat(FleetEndings.key("t".repeat(1_024))).hasSizeLessThan(80);
  }
}
