package io.kvfleet.events.replay;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * How explanations write times and sizes; public so the control plane's event lines write sizes the
 * same way (the engine, which knows nothing of events, has its own {@code Hex.bytes} for its messages).
 */
public final class Text {
  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

  private Text() {}

  /** A time of day in UTC, to the millisecond: {@code 10:42:07.123}. */
  public static String clock(Instant time) {
    return time == null ? "?" : CLOCK.format(time);
  }

  /** Bytes as an operator reads them: {@code 512 B}, {@code 16.0 KiB}, {@code 2.5 MiB}. */
  public static String bytes(long n) {
    if (n >= 1 << 20) {
      return String.format("%.1f MiB", n / 1048576.0);
    }
    if (n >= 1 << 10) {
      return String.format("%.1f KiB", n / 1024.0);
    }
    return n + " B";
  }
}
