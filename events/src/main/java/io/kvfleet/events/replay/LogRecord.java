package io.kvfleet.events.replay;

import static java.util.Objects.requireNonNull;

import io.kvfleet.events.codec.Decoded;
import java.time.Instant;

/**
 * One Kafka record as replay sees it: where it was, the record's own timestamp, its key and what
 * its value decoded to (an event, or why it is not one).
 *
 * @param timestamp the Kafka record timestamp, which replay orders and cuts by
 * @param key the record key as UTF-8 text, empty when the record has none
 */
public record LogRecord(LogPosition position, Instant timestamp, String key, Decoded value) {
  public LogRecord {
    requireNonNull(position, "position must not be null");
    requireNonNull(timestamp, "timestamp must not be null");
    requireNonNull(key, "key must not be null (use \"\")");
    requireNonNull(value, "value must not be null");
  }
}
