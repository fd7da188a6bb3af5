package io.kvfleet.control.dataplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.engine.TransferFailure;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.TransferFailed;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** The failure a source reports when it cannot prove a page landed in time, and which failures may have moved bytes. */
class LandedLateTest {
  @Test
  void aBatchEndedPartWayMayHaveMovedBytesOneRefusedUpFrontDidNot() {
    var moved = EnumSet.noneOf(TransferFailure.class);
    for (var reason : TransferFailure.values()) {
      if (LandedLate.mayHaveMoved(reason)) {
        moved.add(reason);
      }
    }

    assertThat(moved).containsExactlyInAnyOrder(TransferFailure.LEASE_UNPROVEN, TransferFailure.DEADLINE_PASSED,
        TransferFailure.TRANSPORT_ERROR, TransferFailure.PEER_LOST);
  }

  @Test
  void theBytesThatMayHaveLandedLateAreReadBackFromTheFailure() {
    var request = new io.kvfleet.events.TransferRequested("t-1", "prefill-0", 3, "kv-0", "decode-0", 4, "kv-0",
        io.kvfleet.events.TransferOp.WRITE, java.util.List.of(new ByteRange(0, 0, 16_384)), Long.MAX_VALUE, false);

    var failed = LandedLate.failed(request, 16_384, "page 0", 4_096);

    assertThat(failed.reason()).isEqualTo(ReasonCodes.LANDED_AFTER_LEASE);
    assertThat(LandedLate.bytes(failed)).isEqualTo(16_384);
    assertThat(LandedLate.bytes(new TransferFailed("t-1", "prefill-0", ReasonCodes.PEER_LOST, 0, "99 B"))).isZero();
  }
}
