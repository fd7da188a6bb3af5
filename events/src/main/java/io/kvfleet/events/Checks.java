package io.kvfleet.events;

/** Field checks shared by the event records' compact constructors. */
final class Checks {
  private Checks() {}

  static void positiveEpoch(long epoch) {
    if (epoch <= 0) {
      throw new IllegalArgumentException("epoch must be positive: " + epoch);
    }
  }

  /**
   * The longest node, region, transfer or request id an event may carry. Every answer repeats the ids of what it
   * answers (a rejection's subject and data), so an id near a Kafka record's size made a request no answer could
   * follow, and a transfer that never ended; no fleet writer uses ids of more than a few dozen characters.
   */
  static final int LONGEST_ID = 1_024;

  static void id(String what, String value) {
    java.util.Objects.requireNonNull(value, what + " must not be null");
    if (value.length() > LONGEST_ID) {
      throw new IllegalArgumentException(what + " is " + value.length() + " characters long; an id has at most "
          + LONGEST_ID);
    }
  }

  static void notNegative(String what, long value) {
    if (value < 0) {
      throw new IllegalArgumentException(what + " must not be negative: " + value);
    }
  }
}
