package io.kvfleet.control.bench;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Open-loop sending at a fixed rate: request {@code i} is due {@code i / rate} seconds after the
 * start and is sent then, or at once when the sender runs late. Its latency counts from the due
 * time, so a stall is charged to every request it delayed (no coordinated omission).
 */
final class LoadGenerator {
  private final int rate;

  LoadGenerator(int rate) {
    if (rate <= 0) {
      throw new IllegalArgumentException("rate must be positive: " + rate);
    }
    this.rate = rate;
  }

  /** Nanoseconds after the start at which request {@code index} is due. */
  long dueAfter(long index) {
    return index * 1_000_000_000L / rate;
  }

  /** How many requests a run of {@code duration} sends. */
  long count(Duration duration) {
    return duration.toMillis() * rate / 1_000;
  }

  /**
   * Sends {@code count(duration)} requests numbered from {@code firstId} on schedule, then waits up
   * to {@code drain} for their answers.
   */
  PhaseResult run(Target target, Meter meter, long firstId, Duration duration, Duration drain)
      throws InterruptedException {
    var measurement = Measurement.openLoop();
    meter.install(measurement);
    long n = count(duration);
    var cpu = CpuMeter.start();
    long start = System.nanoTime();
    for (long i = 0; i < n; i++) {
      long due = start + dueAfter(i);
      waitUntil(due);
      measurement.started(firstId + i, due);
      target.send(firstId + i);
    }
    var used = cpu.stop();
    measurement.awaitAnswers(drain);
    long last = measurement.lastAnswerNanos();
    double seconds = Math.max(last - start, 1) / 1e9;
    return new PhaseResult(target.name(), rate + "/s", measurement.latencies(), n,
        measurement.answered(), measurement.failed(), measurement.answered() / seconds, used);
  }

  private static void waitUntil(long dueNanos) {
    long left;
    while ((left = dueNanos - System.nanoTime()) > 0) {
      LockSupport.parkNanos(left);
    }
  }
}
