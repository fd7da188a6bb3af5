package io.kvfleet.control.ops;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * When each transfer in flight was requested and decided (envelope times), so its outcome can be
 * split into phases. Holds at most {@link #MAX} transfers: the oldest are dropped first, so a
 * request that never ends cannot grow it.
 */
final class TransferPhases {
  static final int MAX = 100_000;

  /** When one transfer was requested and, once it was, decided. */
  record Times(Instant requested, Instant decided) {}

  private final Map<String, Times> inFlight = new LinkedHashMap<>(1024, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Times> eldest) {
      return size() > MAX;
    }
  };

  void requested(String transferId, Instant at) {
    inFlight.put(transferId, new Times(at, null));
  }

  /** Records the decision and answers request-to-decision, if the request was seen. */
  Optional<Duration> decided(String transferId, Instant at) {
    var times = inFlight.get(transferId);
    if (times == null) {
      return Optional.empty();
    }
    inFlight.put(transferId, new Times(times.requested(), at));
    return Optional.of(between(times.requested(), at));
  }

  /** Forgets the transfer and answers its times, if its request was seen. */
  Optional<Times> ended(String transferId) {
    return Optional.ofNullable(inFlight.remove(transferId));
  }

  int size() {
    return inFlight.size();
  }

  static Duration between(Instant from, Instant to) {
    var d = Duration.between(from, to);
    return d.isNegative() ? Duration.ZERO : d;
  }
}
