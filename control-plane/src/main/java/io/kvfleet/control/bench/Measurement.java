package io.kvfleet.control.bench;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * One phase's latencies: each request's start time (its due time in an open loop, its send time in
 * a closed one) until its first answer, in microseconds. Answers to requests it did not start are
 * ignored, so a late answer from an earlier phase cannot count here. Thread-safe: the sender starts
 * requests, a reader thread answers them.
 */
final class Measurement {
  private final ConcurrentHashMap<Long, Long> pending = new ConcurrentHashMap<>();
  private final Recorder micros = new Recorder(3);
  private final LongAdder answered = new LongAdder();
  private final LongAdder failed = new LongAdder();
  private final AtomicLong lastAnswerNanos = new AtomicLong();
  private final Semaphore window;

  private Measurement(Semaphore window) {
    this.window = window;
  }

  /** For an open loop: nothing waits on answers. */
  static Measurement openLoop() {
    return new Measurement(null);
  }

  /** For a closed loop: each answer returns one permit to {@code window}. */
  static Measurement closedLoop(Semaphore window) {
    return new Measurement(window);
  }

  /** Request {@code id} started at {@code startNanos}. */
  void started(long id, long startNanos) {
    pending.put(id, startNanos);
  }

  /** Records the answer to {@code id} if this phase started it and it was not answered before. */
  void answered(long id, long atNanos, boolean ok) {
    Long start = pending.remove(id);
    if (start == null) {
      return;
    }
    micros.recordValue(Math.max(0, (atNanos - start) / 1_000));
    answered.increment();
    if (!ok) {
      failed.increment();
    }
    lastAnswerNanos.accumulateAndGet(atNanos, Math::max);
    if (window != null) {
      window.release();
    }
  }

  /** Waits until every started request is answered or {@code limit} passes. */
  void awaitAnswers(java.time.Duration limit) throws InterruptedException {
    long end = System.nanoTime() + limit.toNanos();
    while (!pending.isEmpty() && System.nanoTime() < end) {
      Thread.sleep(10);
    }
  }

  /** Requests started and not answered yet. */
  int pending() {
    return pending.size();
  }

  long answered() {
    return answered.sum();
  }

  long failed() {
    return failed.sum();
  }

  /** {@link System#nanoTime()} of the latest answer, 0 before the first. */
  long lastAnswerNanos() {
    return lastAnswerNanos.get();
  }

  /** The latencies recorded since the last call, in microseconds. */
  Histogram latencies() {
    return micros.getIntervalHistogram();
  }
}
