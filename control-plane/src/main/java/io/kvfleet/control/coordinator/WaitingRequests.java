package io.kvfleet.control.coordinator;

import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.state.FleetState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Requests that named a node, epoch or region the fleet state had not read yet. They are decided
 * again as node events arrive; when the grace runs out, they are rejected with the reason they
 * had. Owned by the coordinator's event loop.
 */
final class WaitingRequests {
  /** How long a request may wait for node events that explain it. */
  static final Duration GRACE = Duration.ofSeconds(2);

  private record Entry(TransferRequested request, Decision.Wait decision, Instant until) {}

  private final Map<String, Entry> byId = new LinkedHashMap<>();

  void add(TransferRequested request, Decision.Wait wait, Instant now) {
    byId.putIfAbsent(request.transferId(), new Entry(request, wait, now.plus(GRACE)));
  }

  boolean isEmpty() {
    return byId.isEmpty();
  }

  /** Decides every waiting request again: answers what to act on now, in arrival order. */
  List<Decision.Action> retry(TransferDecider decider, FleetState state, Instant now) {
    List<Decision.Action> ready = new ArrayList<>();
    for (Iterator<Entry> it = byId.values().iterator(); it.hasNext(); ) {
      Entry entry = it.next();
      switch (decider.decide(state, entry.request(), now)) {
        case Decision.Action action -> {
          ready.add(action);
          it.remove();
        }
        case Decision.Wait wait when now.isAfter(entry.until()) -> {
          ready.add(new Decision.Reject(wait.ifStill()));
          it.remove();
        }
        case Decision.Wait stillWaiting -> { } // node events may still explain it
      }
    }
    return ready;
  }
}
