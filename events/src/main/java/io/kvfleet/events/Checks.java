package io.kvfleet.events;

/** Field checks shared by the event records' compact constructors. */
final class Checks {
  private Checks() {}

  static void positiveEpoch(long epoch) {
    if (epoch <= 0) {
      throw new IllegalArgumentException("epoch must be positive: " + epoch);
    }
  }

  static void notNegative(String what, long value) {
    if (value < 0) {
      throw new IllegalArgumentException(what + " must not be negative: " + value);
    }
  }
}
