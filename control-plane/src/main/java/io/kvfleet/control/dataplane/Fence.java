package io.kvfleet.control.dataplane;

import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRequested;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What a transfer asks of its source's lease as its pages go (the agent answers from its lease and
 * the wall clock): whether the next page may start, and, once a page has landed, whether it landed
 * before the fleet could have failed the transfer. A completion is reported only when every page
 * passed that second question; a page that did not ends the transfer {@link LandedLate}.
 */
public interface Fence {
  /** A source with no lease to keep (tools, benchmarks, tests): every page may go and lands in time. */
  Fence UNFENCED = new Fence() {
    @Override
    public boolean mayGoOn() {
      return true;
    }

    @Override
    public boolean landedInTime(long deadlineMillis) {
      return true;
    }
  };

  /** Whether a page may start now: the lease is proven with a page's margin to spare. */
  boolean mayGoOn();

  /**
   * Whether everything that landed before this call landed before the fleet could have published
   * the transfer's failure: the source's lease had not ended and the wall clock was before {@code
   * deadlineMillis}. Ask it only once the page's bytes have landed (the copy returned, the batch
   * completed, the destination answered), so that the clocks it reads are later than the landing.
   */
  boolean landedInTime(long deadlineMillis);

  /**
   * How long before its deadline a batch still running is given up: a page's time, so that what it
   * moved has landed, and the give-up is proven in time, before the fleet may time the transfer out.
   */
  default long deadlineMarginMillis() {
    return 0;
  }

  /**
   * What the fleet said when it ended this fence's transfer, if the source has read in the log that
   * it did (a coordinator failed, timed out or rejected it): no page starts after that.
   */
  default Optional<String> endedByFleet() {
    return Optional.empty();
  }

  /** The wall clock deadlines are read on. */
  default long nowMillis() {
    return System.currentTimeMillis();
  }

  /**
   * Why the next page of {@code request} may not start, if it may not: the lease is not proven with
   * a page's margin to spare ({@code LEASE_UNPROVEN}), or the deadline is less than that margin away
   * ({@code DEADLINE_PASSED}), so that a page that starts lands before the fleet may fail it; or the
   * source read that the fleet ended the transfer ({@code ENDED_BY_FLEET}). {@code landed} bytes before it landed in time; {@code page} names it (built only on a refusal).
   */
  default Optional<TransferFailed> before(TransferRequested request, Supplier<String> page, long landed) {
    if (!mayGoOn()) {
      return Optional.of(stopped(request, page.get(), landed));
    }
    if (nowMillis() >= request.deadlineMillis() - deadlineMarginMillis()) {
      return Optional.of(new TransferFailed(request.transferId(), request.sourceNode(), ReasonCodes.DEADLINE_PASSED,
          0, "its deadline " + java.time.Instant.ofEpochMilli(request.deadlineMillis()) + " was less than a page's "
              + deadlineMarginMillis() + " ms away before " + page.get() + "; " + landed + " B before it landed in"
              + " time, the rest was not sent"));
    }
    var ended = endedByFleet();
    if (ended.isPresent()) {
      return Optional.of(LandedLate.endedByFleet(request, landed, ended.get(), "nothing from " + page.get()
          + " on was sent"));
    }
    return Optional.empty();
  }

  /** A transfer the fence stopped before {@code page}: failed LEASE_UNPROVEN, the {@code landed} bytes before it in time. */
  static TransferFailed stopped(TransferRequested request, String page, long landed) {
    return new TransferFailed(request.transferId(), request.sourceNode(), ReasonCodes.LEASE_UNPROVEN, 0,
        "the source could not prove its lease before " + page + "; " + landed + " B before it landed in time, the"
            + " rest was not sent");
  }
}
