package io.kvfleet.control.coordinator;

import io.kvfleet.events.state.FleetState;
import java.util.HashSet;
import java.util.Set;

/**
 * The one place that says whether a transfer has ended, as far as this coordinator knows: the
 * fold read its terminal event, or this coordinator published one (a rejection, a time-out, a
 * failure) that the fold has not read back yet. Every path that ends a transfer claims the ending
 * here first ({@link #claimEnd}), so a request whose deadline passed before it was read is either
 * rejected or timed out, never both. Owned by the coordinator's event loop.
 */
final class Answers {
  /** Transfers this coordinator ended whose end the fold has not read back yet. */
  private final Set<String> endedHere = new HashSet<>();

  /**
   * Claims the ending of {@code transferId}: true once, when neither the fold nor this coordinator
   * has ended it; the caller then publishes its terminal event.
   */
  boolean claimEnd(FleetState state, String transferId) {
    return !endedInFold(state, transferId) && endedHere.add(transferId);
  }

  /** Whether this coordinator or the fold has ended {@code transferId}. */
  boolean ended(FleetState state, String transferId) {
    return endedHere.contains(transferId) || endedInFold(state, transferId);
  }

  /** Whether this coordinator ended {@code transferId} and the fold has not read that back yet. */
  boolean endedHere(String transferId) {
    return endedHere.contains(transferId);
  }

  /** The fold read the end of {@code transferId}, or its partition went to another coordinator. */
  void readBack(String transferId) {
    endedHere.remove(transferId);
  }

  /** Kafka refused the ending claimed for {@code transferId}: it is certainly not in the log, so it may be ended again. */
  void released(String transferId) {
    endedHere.remove(transferId);
  }

  /** How many endings are on their way to the fold. */
  int onTheirWay() {
    return endedHere.size();
  }

  private static boolean endedInFold(FleetState state, String transferId) {
    return state.transfer(transferId).map(t -> t.status().isTerminal()).orElse(false);
  }
}
