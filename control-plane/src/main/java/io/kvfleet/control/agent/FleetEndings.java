package io.kvfleet.control.agent;

import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferTimedOut;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;

/**
 * The transfers of this node that the fleet ended, as the agent read them in its order partition,
 * in log order: a coordinator failed, timed out or rejected them (not a duplicate's rejection, which
 * answers a later request reusing the id). No order of that life of the transfer starts, and one
 * that runs sends no page after its ending was read ({@link LeaseFence}). A request for the same id
 * made and read after the ending (the coordinators had forgotten it) is a new life: the orders
 * naming that request record run; the ended life's orders stay refused whatever comes after.
 *
 * <p>Only the order reader's polling thread writes ({@link #read}, {@link #requested}, {@link
 * #any}); the transfers' workers read ({@link #of}) through a concurrent map of immutable values. An
 * ending is held for {@link #HELD} after it was read (a dispatch of the same request comes within
 * its deadline, seconds; the coordinators forget an ended transfer after ten minutes by default),
 * at most {@link #KEPT} of them, each with a bounded size whatever its record said.
 */
final class FleetEndings {
  static final Duration HELD = Duration.ofMinutes(10);
  static final int KEPT = 65_536;
  /** Later requests remembered per ending: a router that resends an id more often is refused past them. */
  static final int LATER_REQUESTS = 16;
  /**
   * The longest transfer id, request record id or producer kept as it is (a record may say anything):
   * a longer id, or one that starts as a kept hash does ({@code sha-256:}), is kept as its SHA-256,
   * a longer producer cut.
   */
  static final int LONGEST = 256;
  private static final String HASHED = "sha-256:";
  private static final Pattern REASON = Pattern.compile("[A-Z_]{1,40}");

  /**
   * {@code endedAt}: the ending's time as its writer stamped it; {@code laterRequests}: envelope ids
   * of requests for the same id stamped after it, read after it.
   */
  private record Ended(String what, Instant endedAt, long readAt, Set<String> laterRequests) {}

  private final Map<String, Ended> ended = new ConcurrentHashMap<>();
  /** The ids in the order their endings were read, the polling thread's alone: the oldest go first. */
  private final ArrayDeque<String> readOrder = new ArrayDeque<>();
  private final LongSupplier nanos;

  FleetEndings() {
    this(System::nanoTime);
  }

  FleetEndings(LongSupplier nanos) {
    this.nanos = nanos;
  }

  /**
   * Takes {@code event}, written by {@code producer} at {@code at}, if it ends a transfer: a
   * failure, a time-out or a rejection.
   */
  void read(FleetEvent event, String producer, Instant at) {
    String what = switch (event) {
      case TransferFailed f -> "transfer.failed " + reason(f.reason());
      case TransferTimedOut t -> "transfer.timed_out";
      case TransferRejected r when r.reason().equals(ReasonCodes.DUPLICATE_TRANSFER) -> null;
      case TransferRejected r -> "transfer.rejected " + reason(r.reason());
      default -> null;
    };
    String id = key(event.subject());
    var held = ended.get(id);
    if (what == null || (held != null && held.laterRequests().isEmpty())) {
      return; // the first ending of a life stands
    }
    if (held != null) {
      readOrder.removeFirstOccurrence(id); // a later life of the id ended too: it ends every life read so far
    }
    forgetOld();
    ended.put(id, new Ended(what + " by " + cut(producer), at, nanos.getAsLong(), Set.of()));
    readOrder.addLast(id);
  }

  /**
   * Request record {@code requestEventId} for {@code transferId}, stamped {@code at}, was read after
   * its ending, if one is held: a new life of the id when it was also made after the ending (not
   * the ended request's own record written again, nor a router's retry of it, which name it).
   */
  void requested(String transferId, String requestEventId, Instant at) {
    ended.computeIfPresent(key(transferId), (id, held) -> {
      if (held.laterRequests().size() >= LATER_REQUESTS || !at.isAfter(held.endedAt())) {
        return held;
      }
      var later = new HashSet<>(held.laterRequests());
      later.add(key(requestEventId));
      return new Ended(held.what(), held.endedAt(), held.readAt(), Set.copyOf(later));
    });
  }

  /**
   * What the fleet said when it ended the life of {@code transferId} that request record {@code
   * requestEventId} began, if the agent read that it did.
   */
  Optional<String> of(String transferId, String requestEventId) {
    if (ended.isEmpty()) {
      return Optional.empty(); // asked before every page and poll: nothing held, nothing more to look at
    }
    var held = ended.get(key(transferId));
    return held == null || old(held, nanos.getAsLong()) || held.laterRequests().contains(key(requestEventId))
        ? Optional.empty() : Optional.of(held.what());
  }

  /** Whether any ending is held: only then must requests be read (to tell a new life of an id). */
  boolean any() {
    forgetOld();
    return !ended.isEmpty();
  }

  private void forgetOld() {
    long now = nanos.getAsLong();
    while (!readOrder.isEmpty() && (readOrder.size() >= KEPT || old(ended.get(readOrder.peekFirst()), now))) {
      ended.remove(readOrder.pollFirst());
    }
  }

  private static boolean old(Ended held, long now) {
    return now - held.readAt() >= HELD.toNanos();
  }

  private static String reason(String reason) {
    return REASON.matcher(reason).matches() ? reason : "(no reason code)";
  }

  /**
   * How an id is held: as it is, or, past {@link #LONGEST} characters or spelled as a kept hash, as
   * {@code sha-256:} and its SHA-256 (dropping such an ending let a transfer with a long id run on
   * after the fleet had failed it, RELIABILITY.md).
   */
  static String key(String id) {
    if (id.length() <= LONGEST && !id.startsWith(HASHED)) {
      return id; // an id spelled as a hash is hashed too: no request can name another id's key
    }
    try {
      var digest = MessageDigest.getInstance("SHA-256");
      for (int i = 0; i < id.length(); i++) { // the chars themselves: UTF-8 would merge lone surrogates
        char c = id.charAt(i);
        digest.update((byte) (c >>> 8));
        digest.update((byte) c);
      }
      return HASHED + HexFormat.of().formatHex(digest.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  private static String cut(String text) {
    return text.length() <= LONGEST ? text : text.substring(0, LONGEST) + "...";
  }
}
