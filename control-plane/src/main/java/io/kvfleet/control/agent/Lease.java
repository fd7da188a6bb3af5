package io.kvfleet.control.agent;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * What an agent can prove of its own lease: a heartbeat promises the fleet a lease from when it
 * was sent, and the fleet judges a node lost no earlier than a lease after the last heartbeat it
 * read, which it cannot read before it was sent. So once Kafka has acknowledged a heartbeat sent
 * at {@code s} (on this process's monotonic clock), the agent knows that no one may have declared
 * it lost before {@code s + lease}. It starts work only while that moment is at least a margin
 * away (one heartbeat period: the time a page transfer may take), and an agent that lets its proof
 * lapse must treat its epoch as dead. This rests on one clock assumption only: that the fleet's
 * clocks run at the same rate (no clock sync is needed, as the proof starts from the agent's own
 * send time, never a timestamp compared across machines).
 *
 * <p>The margin is for starting work; what landed is judged against the lease's end itself: bytes
 * that landed before a reading of this clock that is still before {@code s + lease} landed before
 * anyone could have declared the node lost ({@link #inside}).
 *
 * <p>Thread-safe: heartbeats are acknowledged on Kafka's thread, checked on transfer workers.
 */
public final class Lease {
  private final long leaseNanos;
  private final long marginNanos;
  private final LongSupplier nanoTime;
  /** Until when (monotonic nanos) the lease is proven, margin included; MIN_VALUE while nothing is. */
  private volatile long provenUntil = Long.MIN_VALUE;
  /** Once a proof lapsed, no later acknowledgement brings it back: the fleet may have declared the epoch lost. */
  private volatile boolean dead;

  /** A lease of {@code lease} renewed by heartbeats every {@code heartbeat}, on the JVM's monotonic clock. */
  public Lease(Duration lease, Duration heartbeat) {
    this(lease, heartbeat, System::nanoTime);
  }

  Lease(Duration lease, Duration heartbeat, LongSupplier nanoTime) {
    if (heartbeat.compareTo(lease) >= 0) {
      throw new IllegalArgumentException("the heartbeat " + heartbeat + " must be shorter than the lease " + lease);
    }
    this.leaseNanos = lease.toNanos();
    this.marginNanos = heartbeat.toNanos();
    this.nanoTime = nanoTime;
  }

  /** The monotonic time to stamp a heartbeat with as it is handed to Kafka. */
  public long now() {
    return nanoTime.getAsLong();
  }

  /** Kafka acknowledged the heartbeat stamped {@code sentAt}: the lease is proven from then on. */
  public synchronized void acknowledged(long sentAt) {
    if (lapsed()) {
      dead = true; // an acknowledgement after a lapse proves nothing about the time in between
      return;
    }
    provenUntil = Math.max(provenUntil, sentAt + leaseNanos - marginNanos);
  }

  /** Gives the lease up for good (the agent read its own loss, or fences itself): no work goes on under it. */
  public void revoke() {
    dead = true;
  }

  /** Whether the agent may start work now, or go on with work it started. */
  public boolean current() {
    return !dead && nanoTime.getAsLong() < provenUntil;
  }

  /**
   * Whether the monotonic instant {@code at} lies inside the proven lease: before its end (the last
   * acknowledged send plus the lease, margin excluded), and the lease neither revoked nor lapsed for
   * good. Anything that happened before such an instant happened before the fleet could have declared
   * this epoch lost; a revoke counts even for an earlier instant, since the agent revokes before it
   * says goodbye or joins again, either of which lets the fleet fail its transfers sooner.
   */
  public boolean inside(long at) {
    long proven = provenUntil;
    return !dead && proven != Long.MIN_VALUE && at < proven + marginNanos;
  }

  /** Whether a lease was proven once and has lapsed since: the fleet may have declared this epoch lost. */
  public boolean lapsed() {
    return provenUntil != Long.MIN_VALUE && (dead || nanoTime.getAsLong() >= provenUntil);
  }

  /** The margin work keeps from the lease's end: one heartbeat period, the time a page may take. */
  public Duration margin() {
    return Duration.ofNanos(marginNanos);
  }

  /** How long ago the proof ran out, for a message; zero while it holds. */
  public Duration lapsedFor() {
    long over = nanoTime.getAsLong() - provenUntil;
    return provenUntil == Long.MIN_VALUE || over <= 0 ? Duration.ZERO : Duration.ofNanos(over);
  }
}
