package io.kvfleet.events.state;

import static java.util.Objects.requireNonNull;

/**
 * What the log holds of one producer incarnation's sequence numbers. Gaps are counted between
 * the lowest and highest sequence seen, whatever order the events came in (a producer writes to
 * several topics, so a consumer sees its sequence interleaved); a replay that starts after
 * retention removed the first events does not count them as missing.
 *
 * @param missing sequence numbers between lowest and highest not seen (so far)
 * @param duplicates events whose sequence number was already seen; they are not folded again
 */
public record SequenceView(
    String producer, long epoch, long lowest, long highest, long missing, long duplicates) {
  public SequenceView {
    requireNonNull(producer, "producer must not be null");
  }
}
