package io.kvfleet.events.replay;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** Where a replay stops: the end of the log, a moment, one record, or a number of records. */
public sealed interface Until {

  /** What to do with the next record in replay order. */
  enum Step {
    /** Fold it and go on. */
    FOLD,
    /** Fold it, then stop. */
    FOLD_AND_STOP,
    /** Stop without folding it. */
    STOP
  }

  /** The step for {@code record}, the {@code index}-th (from 0) in replay order. */
  Step step(LogRecord record, long index);

  /** Every record. */
  record End() implements Until {
    @Override
    public Step step(LogRecord record, long index) {
      return Step.FOLD;
    }
  }

  /** Records up to the first one whose Kafka timestamp is after {@code time}. */
  record AtTime(Instant time) implements Until {
    public AtTime {
      requireNonNull(time, "time must not be null");
    }

    @Override
    public Step step(LogRecord record, long index) {
      return record.timestamp().isAfter(time) ? Step.STOP : Step.FOLD;
    }
  }

  /** Records up to and including the one at {@code position}. */
  record AtRecord(LogPosition position) implements Until {
    public AtRecord {
      requireNonNull(position, "position must not be null");
    }

    @Override
    public Step step(LogRecord record, long index) {
      return record.position().equals(position) ? Step.FOLD_AND_STOP : Step.FOLD;
    }
  }

  /** The first {@code records} records. */
  record AfterCount(long records) implements Until {
    public AfterCount {
      if (records < 0) {
        throw new IllegalArgumentException("a record count must not be negative: " + records);
      }
    }

    @Override
    public Step step(LogRecord record, long index) {
      return index >= records ? Step.STOP : index + 1 == records ? Step.FOLD_AND_STOP : Step.FOLD;
    }
  }

  /**
   * Reads an RFC 3339 time ({@code 2025-06-01T10:42:07Z}), a log position
   * ({@code kvfleet.nodes-1@42}) or a record count ({@code 1500}).
   */
  static Until parse(String text) {
    String value = requireNonNull(text, "text must not be null").strip();
    if (value.matches("\\d+")) {
      try {
        return new AfterCount(Long.parseLong(value));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("'" + text + "' is more records than a log holds (a record count is at"
            + " most " + Long.MAX_VALUE + "); give a time (2025-06-01T10:42:07Z), a log position"
            + " (kvfleet.nodes-1@42) or a record count (1500)");
      }
    }
    if (value.contains("@")) {
      return new AtRecord(LogPosition.parse(value));
    }
    try {
      return new AtTime(OffsetDateTime.parse(value).toInstant());
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("'" + text + "' is not a time (2025-06-01T10:42:07Z), a log position"
          + " (kvfleet.nodes-1@42) or a record count (1500)");
    }
  }
}
