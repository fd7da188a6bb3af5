package io.kvfleet.control.agent;

import io.kvfleet.control.dataplane.Fence;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The agent's answer to its transfers' {@link Fence}: a page starts while its {@link Lease} is
 * current, margin included; a page landed in time if the monotonic clock, read after it landed, is
 * inside the lease itself ({@link Lease#inside}) and the wall clock before the request's deadline.
 * The fleet declares this node lost no earlier than the lease's end and times a transfer out no
 * earlier than its deadline, so such a page landed before any failure of its transfer was
 * published. The deadline is compared on the wall clock, as the coordinator's time-out is. A page
 * never starts once the agent has read in the log that the fleet ended the transfer ({@link FleetEndings}).
 */
record LeaseFence(Lease lease, LongSupplier wallMillis, Supplier<Optional<String>> ended) implements Fence {
  LeaseFence(Lease lease) {
    this(lease, System::currentTimeMillis, Optional::empty);
  }

  LeaseFence(Lease lease, LongSupplier wallMillis) {
    this(lease, wallMillis, Optional::empty);
  }

  @Override
  public Optional<String> endedByFleet() {
    return ended.get();
  }

  @Override
  public boolean mayGoOn() {
    return lease.current();
  }

  @Override
  public long nowMillis() {
    return wallMillis.getAsLong();
  }

  @Override
  public long deadlineMarginMillis() {
    return lease.margin().toMillis();
  }

  @Override
  public boolean landedInTime(long deadlineMillis) {
    long at = lease.now(); // read before the lease's state, so a revoke seen as absent came after this instant
    return lease.inside(at) && nowMillis() < deadlineMillis;
  }
}
