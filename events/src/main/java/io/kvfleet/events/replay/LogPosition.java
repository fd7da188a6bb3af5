package io.kvfleet.events.replay;

import static java.util.Objects.requireNonNull;

import java.util.regex.Pattern;

/**
 * Where a record sits in Kafka: topic, partition and offset, written {@code topic-partition@offset}
 * (e.g. {@code kvfleet.nodes-1@42}).
 */
public record LogPosition(String topic, int partition, long offset) {
  private static final Pattern TEXT = Pattern.compile("(.+)-(\\d+)@(\\d+)");

  public LogPosition {
    requireNonNull(topic, "topic must not be null");
    if (partition < 0 || offset < 0) {
      throw new IllegalArgumentException("partition and offset must not be negative: " + partition + ", " + offset);
    }
  }

  /** Reads {@code topic-partition@offset}. */
  public static LogPosition parse(String text) {
    var m = TEXT.matcher(text.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a log position: write topic-partition@offset, e.g. kvfleet.nodes-1@42");
    }
    try {
      return new LogPosition(m.group(1), Integer.parseInt(m.group(2)), Long.parseLong(m.group(3)));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' names a partition past " + Integer.MAX_VALUE
          + " or an offset past " + Long.MAX_VALUE + ": write topic-partition@offset, e.g. kvfleet.nodes-1@42");
    }
  }

  /** The partition's name, {@code topic-partition}, as positions and offsets maps use it. */
  public String partitionKey() {
    return partitionKey(topic, partition);
  }

  /** {@code topic-partition}. */
  public static String partitionKey(String topic, int partition) {
    return topic + "-" + partition;
  }

  @Override
  public String toString() {
    return partitionKey() + "@" + offset;
  }
}
