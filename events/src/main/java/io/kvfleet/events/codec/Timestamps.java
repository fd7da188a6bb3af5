package io.kvfleet.events.codec;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;

/**
 * RFC 3339 times in the one shape kvfleet writes ({@code 2026-11-30T17:49:00.123456Z}), read
 * without a full parse: events come in runs from the same second, so the second is read once and
 * kept, and only the fraction is read per event. The second is read from its digits, with the
 * checks {@code DateTimeFormatter.ISO_OFFSET_DATE_TIME} makes (a real date, hour 0-23, minute and
 * second 0-59), not by the formatter: a cold {@code replay --until} spent more on compiling the
 * formatter's resolver than on reading its times. Thread-safe: the kept second is an immutable pair
 * behind a volatile field.
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
    long epochSecond = epochSecond(text);
    if (epochSecond == Long.MIN_VALUE) {
      return null;
    }
    last = new Second(text.substring(0, SECOND_END), epochSecond);
    return Instant.ofEpochSecond(epochSecond, nanos);
  }

  /** The second of a {@link #shaped} text, or {@code Long.MIN_VALUE} when it names no real time. */
  private static long epochSecond(String text) {
    int hour = number(text, 11, 2);
    int minute = number(text, 14, 2);
    int second = number(text, 17, 2);
    if (hour > 23 || minute > 59 || second > 59) {
      return Long.MIN_VALUE;
    }
    try {
      long day = LocalDate.of(number(text, 0, 4), number(text, 5, 2), number(text, 8, 2)).toEpochDay();
      return day * 86_400 + hour * 3_600 + minute * 60 + second;
    } catch (DateTimeException e) {
      return Long.MIN_VALUE; // no such month or day
    }
  }

  private static int number(String text, int from, int digits) {
    int value = 0;
    for (int i = from; i < from + digits; i++) {
      value = value * 10 + (text.charAt(i) - '0');
    }
    return value;
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
