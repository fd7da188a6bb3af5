package io.kvfleet.events.replay;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * One record of a replay's timeline.
 *
 * @param index the record's number in replay order, from 1
 * @param sinceStart its timestamp minus the first record's
 */
public record TimelineEntry(long index, LogRecord record, Duration sinceStart) {
  public TimelineEntry {
    requireNonNull(record, "record must not be null");
    requireNonNull(sinceStart, "sinceStart must not be null");
  }
}
