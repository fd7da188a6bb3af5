package io.kvfleet.control.bench;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How a {@code bench fleet} run goes; both systems get the same settings.
 *
 * @param rate requests per second in the fixed-rate phase
 * @param duration length of each measured phase
 * @param warmup length of the unrecorded fixed-rate phase before them (may be zero)
 * @param window requests kept outstanding in the saturation phase
 * @param pages 4 KiB pages per transfer, one range each (sets our record sizes, and so the raw ones)
 * @param drain how long a phase waits for its last answers before counting them as unanswered
 */
public record BenchSettings(int rate, Duration duration, Duration warmup, int window, int pages, Duration drain) {
  public BenchSettings {
    requireNonNull(duration, "duration must not be null");
    requireNonNull(warmup, "warmup must not be null");
    requireNonNull(drain, "drain must not be null");
    positive("rate", rate);
    positive("window", window);
    positive("pages", pages);
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("duration must be positive: " + duration);
    }
    if (warmup.isNegative() || drain.isNegative()) {
      throw new IllegalArgumentException("warmup and drain must not be negative: " + warmup + ", " + drain);
    }
  }

  private static void positive(String what, int value) {
    if (value <= 0) {
      throw new IllegalArgumentException(what + " must be positive: " + value);
    }
  }
}
