package io.kvfleet.events.replay;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * One thing wrong with a log.
 *
 * @param position the record it is about; null when it is about no one record (a gap, an unended transfer)
 * @param time that record's timestamp, or for an unended transfer when it was requested; null for a gap
 * @param subject the producer, node or transfer it concerns
 * @param message what is wrong, in words an operator reads
 */
public record Anomaly(AnomalyKind kind, LogPosition position, Instant time, String subject, String message) {
  public Anomaly {
    requireNonNull(kind, "kind must not be null");
    requireNonNull(subject, "subject must not be null");
    requireNonNull(message, "message must not be null");
  }
}
