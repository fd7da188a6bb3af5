package io.kvfleet.events.state;

import static java.util.Objects.requireNonNull;

/**
 * Sequence numbers of one producer incarnation that the log lacks, between two it holds.
 *
 * @param from the first missing number
 * @param to the last missing number (included)
 */
public record SequenceGap(String producer, long epoch, long from, long to) {
  public SequenceGap {
    requireNonNull(producer, "producer must not be null");
    if (to < from) {
      throw new IllegalArgumentException("an empty gap: " + from + ".." + to);
    }
  }

  /** How many numbers are missing. */
  public long size() {
    return to - from + 1;
  }
}
