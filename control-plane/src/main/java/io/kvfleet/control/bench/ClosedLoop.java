package io.kvfleet.control.bench;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Closed-loop sending for saturation: keeps {@code window} requests outstanding, sending the next
 * as soon as one is answered. Throughput is the answers per second read during the run; latency
 * counts from each request's actual send.
 */
final class ClosedLoop {
  private final int window;

  ClosedLoop(int window) {
    if (window <= 0) {
      throw new IllegalArgumentException("window must be positive: " + window);
    }
    this.window = window;
  }

  /** Runs for {@code duration} from {@code firstId} on, then waits up to {@code drain} for the rest. */
  PhaseResult run(Target target, Meter meter, long firstId, Duration duration, Duration drain)
      throws InterruptedException {
    var permits = new Semaphore(window);
    var measurement = Measurement.closedLoop(permits);
    meter.install(measurement);
    var cpu = CpuMeter.start();
    long start = System.nanoTime();
    long end = start + duration.toNanos();
    long id = firstId;
    while (System.nanoTime() < end) {
      if (permits.tryAcquire(10, TimeUnit.MILLISECONDS)) {
        measurement.started(id, System.nanoTime());
        target.send(id++);
      }
    }
    long answeredInRun = measurement.answered();
    double seconds = (System.nanoTime() - start) / 1e9;
    var used = cpu.stop();
    measurement.awaitAnswers(drain);
    return new PhaseResult(target.name(), "saturation, window " + window, measurement.latencies(),
        id - firstId, measurement.answered(), measurement.failed(), answeredInRun / seconds, used);
  }
}
