package io.kvfleet.control;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether a log line written once per record is written this time: the first {@link #FIRST}, then one in
 * {@link #EVERY}. A writer to Kafka decides how many such records there are, and the log file is the operator's
 * disk: 100,000 junk records were 100,000 WARN lines (64 MB). What is not logged is still counted where the line
 * says.
 */
public final class LogSampling {
  static final long FIRST = 100;
  static final long EVERY = 10_000;
  private final AtomicLong seen = new AtomicLong();

  /** Counts one more; whether its line is written. */
  public boolean next() {
    long n = seen.incrementAndGet();
    return n <= FIRST || n % EVERY == 0;
  }

  /** How many were counted, for the line that is written. */
  public long seen() {
    return seen.get();
  }

  /** What a written line adds once lines are left out. */
  public String note() {
    long n = seen.get();
    return n <= FIRST ? "" : " (" + n + " so far; past " + FIRST + ", one in " + EVERY + " is logged)";
  }
}
