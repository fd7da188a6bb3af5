package io.kvfleet.control.dataplane;

import io.kvfleet.engine.TransferFailure;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRequested;

/**
 * The failure a source reports instead of a completion when it cannot prove that a page landed
 * before the fleet could have failed the transfer ({@link Fence#landedInTime}): a pause or a slow
 * copy carried the page past the lease's end or the deadline. Its bytes may have landed after the
 * fleet was told the transfer failed, so the log says so rather than claiming a clean completion.
 * The detail starts with those bytes ({@link #bytes}), as TransferFailed has no field for them.
 */
public final class LandedLate {
  private LandedLate() {}

  /**
   * {@code lateBytes} in {@code pages} may have landed late; the {@code provenBytes} of the pages
   * before them were proven to land in time.
   */
  public static TransferFailed failed(TransferRequested request, long lateBytes, String pages, long provenBytes) {
    return new TransferFailed(request.transferId(), request.sourceNode(), ReasonCodes.LANDED_AFTER_LEASE, 0,
        lateBytes + " B (" + pages + ") may have landed after the fleet could have failed the transfer: read once"
            + " they landed, " + request.sourceNode() + " epoch " + request.sourceEpoch() + "'s clock was past its"
            + " lease's end or the wall clock past the deadline; " + provenBytes + " B before them landed in time");
  }

  /** {@code outcome}, or {@link #failed} for all its bytes if it is a completion the fence does not prove. */
  static FleetEvent proven(FleetEvent outcome, TransferRequested request, Fence fence) {
    return outcome instanceof TransferCompleted c && !fence.landedInTime(request.deadlineMillis())
        ? failed(request, c.bytes(), "every page of the transfer", 0)
        : outcome;
  }

  /**
   * Whether a batch that failed so may have moved some of its bytes first: one abandoned (on the
   * lease or the deadline) or broken part-way, not one refused before a byte moved.
   */
  static boolean mayHaveMoved(TransferFailure reason) {
    return switch (reason) {
      case LEASE_UNPROVEN, DEADLINE_PASSED, TRANSPORT_ERROR, PEER_LOST -> true;
      case OUT_OF_BOUNDS, UNKNOWN_REGION, NO_GRANT, NO_COMMON_TRANSPORT -> false;
    };
  }

  /**
   * A transfer whose source read in the log that the fleet had ended it ({@code what}) and stopped
   * ({@code stopped}: which page it did not send, that it did not start, or that a batch was given up
   * part-way): {@code sent} bytes had been sent (at most, for a batch given up); the detail starts
   * with them.
   */
  public static TransferFailed endedByFleet(TransferRequested request, long sent, String what, String stopped) {
    return new TransferFailed(request.transferId(), request.sourceNode(), ReasonCodes.ENDED_BY_FLEET, 0,
        sent + " B sent before " + request.sourceNode() + " read that the fleet had ended it (" + what + "); "
            + stopped);
  }

  /** The bytes a {@code LANDED_AFTER_LEASE} failure says may have landed late; 0 for any other failure. */
  public static long bytes(TransferFailed failed) {
    return failed.reason().equals(ReasonCodes.LANDED_AFTER_LEASE) ? leading(failed.detail()) : 0;
  }

  /** The bytes an {@code ENDED_BY_FLEET} failure says were sent before its source read the fleet's ending; else 0. */
  public static long sentBeforeEnded(TransferFailed failed) {
    return failed.reason().equals(ReasonCodes.ENDED_BY_FLEET) ? leading(failed.detail()) : 0;
  }

  private static long leading(String detail) {
    int end = 0;
    while (end < detail.length() && end < 18 && Character.isDigit(detail.charAt(end))) {
      end++;
    }
    return end == 0 ? 0 : Long.parseLong(detail, 0, end, 10);
  }
}
