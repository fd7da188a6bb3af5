package io.kvfleet.control.replay;

import java.util.regex.Pattern;

/**
 * A range of offsets of one partition, both ends included, as {@code --partition} reads it:
 * {@code kvfleet.nodes-0:100..200}, {@code kvfleet.nodes-0:100..} or {@code kvfleet.nodes-0:..200}.
 */
public record OffsetRange(String partitionKey, long from, long to) {
  private static final Pattern TEXT = Pattern.compile("(.+-\\d+):(\\d*)\\.\\.(\\d*)");

  /** Reads {@code topic-partition:from..to}; either end may be left out. */
  public static OffsetRange parse(String text) {
    var m = TEXT.matcher(text.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException("'" + text + "' is not an offset range: write topic-partition:from..to,"
          + " e.g. kvfleet.nodes-0:100..200 (either end may be left out)");
    }
    long from = m.group(2).isEmpty() ? 0 : Long.parseLong(m.group(2));
    long to = m.group(3).isEmpty() ? Long.MAX_VALUE - 1 : Long.parseLong(m.group(3));
    if (to < from) {
      throw new IllegalArgumentException("'" + text + "' is an empty range");
    }
    return new OffsetRange(m.group(1), from, to);
  }
}
