package io.kvfleet.events.codec;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * RFC 3339 times in the one shape kvfleet writes ({@code 2026-11-30T17:49:00.123456Z}), read
 * without a full parse: events come in runs from the same second, so the second is parsed once
 * (by {@link OffsetDateTime}) and kept, and only the fraction is read per event. Thread-safe: the
 * kept second is an immutable pair behind a volatile field.
 */
final class Timestamps {
  private static final int SECOND_END = "2026-11-30T17:49:00".length();
  private static final int[] SCALE = {0, 100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1};

  private record Second(String prefix, long epochSecond) {}

  private volatile Second last = new Second("", 0);

  /** The instant, or null when the text is not in that shape (the tree reader then decides). */
  Instant parse(String text) {
    int nanos = fraction(text);
    if (nanos < 0 || !shaped(text)) {
      return null;
    }
    Second second = last;
    if (text.regionMatches(0, second.prefix(), 0, SECOND_END) && second.prefix().length() == SECOND_END) {
      return Instant.ofEpochSecond(second.epochSecond(), nanos);
    }
    try {
      Instant instant = OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
      last = new Second(text.substring(0, SECOND_END), instant.getEpochSecond());
      return instant;
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** The nanoseconds of {@code Z} or {@code .digits Z} after the second; -1 for anything else. */
  private static int fraction(String text) {
    int length = text.length();
    if (length < SECOND_END + 1 || text.charAt(length - 1) != 'Z') {
      return -1;
    }
    if (length == SECOND_END + 1) {
      return 0;
    }
    int digits = length - SECOND_END - 2;
    if (text.charAt(SECOND_END) != '.' || digits < 1 || digits > 9) {
      return -1;
    }
    int value = 0;
    for (int i = SECOND_END + 1; i < length - 1; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value * SCALE[digits];
  }

  /** Digits and separators where {@code yyyy-MM-ddTHH:mm:ss} has them. */
  private static boolean shaped(String text) {
    for (int i = 0; i < SECOND_END; i++) {
      char c = text.charAt(i);
      boolean ok = switch (i) {
        case 4, 7 -> c == '-';
        case 10 -> c == 'T';
        case 13, 16 -> c == ':';
        default -> c >= '0' && c <= '9';
      };
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
