package io.kvfleet.control.agent;

import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferTimedOut;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The transfers of this node that the fleet ended, as the agent read them in its order partition,
 * in log order: a coordinator failed, timed out or rejected them. No order for such a transfer
 * starts, and a transfer that runs sends no page after its ending was read ({@link LeaseFence}). A
 * later request with the same id (one the coordinators had forgotten) starts it anew. An ending is
 * held for {@link #HELD} after it was read (a dispatch of the same request comes within its
 * deadline, seconds; the coordinators forget an ended transfer after ten minutes by default), and
 * at most {@link #KEPT} of them. Written on the order reader's polling thread, read by the
 * transfers' workers.
 */
final class FleetEndings {
  static final Duration HELD = Duration.ofMinutes(10);
  static final int KEPT = 65_536;

  private record Ended(String what, long readAt) {}

  /** In the order they were read (a re-read ending keeps its place: it expires no later for it). */
  private final Map<String, Ended> ended = new LinkedHashMap<>();
  private final LongSupplier nanos;

  FleetEndings() {
    this(System::nanoTime);
  }

  FleetEndings(LongSupplier nanos) {
    this.nanos = nanos;
  }

  /** Takes {@code event}, written by {@code producer}, if it ends a transfer: a failure, a time-out or a rejection. */
  synchronized void read(FleetEvent event, String producer) {
    String what = switch (event) {
      case TransferFailed f -> "transfer.failed " + f.reason();
      case TransferTimedOut t -> "transfer.timed_out";
      case TransferRejected r -> "transfer.rejected " + r.reason();
      default -> null;
    };
    if (what != null) {
      ended.putIfAbsent(event.subject(), new Ended(what + " by " + producer, nanos.getAsLong()));
      forgetOld();
    }
  }

  /** A request for {@code transferId} came after any ending read so far: a new life of that id. */
  synchronized void requested(String transferId) {
    ended.remove(transferId);
  }

  /** What the fleet said when it ended {@code transferId}, if the agent read that it did. */
  synchronized Optional<String> of(String transferId) {
    forgetOld();
    return Optional.ofNullable(ended.get(transferId)).map(Ended::what);
  }

  /** Whether any ending is held: only then must requests be read (to tell a new life of an id). */
  synchronized boolean any() {
    forgetOld();
    return !ended.isEmpty();
  }

  private void forgetOld() {
    long now = nanos.getAsLong();
    var oldest = ended.values().iterator();
    while (oldest.hasNext()) {
      var next = oldest.next();
      if (ended.size() <= KEPT && now - next.readAt() < HELD.toNanos()) {
        return;
      }
      oldest.remove();
    }
  }
}
