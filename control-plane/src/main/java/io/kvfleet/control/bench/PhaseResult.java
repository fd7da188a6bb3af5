package io.kvfleet.control.bench;

import static java.util.Objects.requireNonNull;

import org.HdrHistogram.Histogram;

/**
 * What one phase measured on one system.
 *
 * @param latencyMicros start-to-answer latencies in microseconds
 * @param sent requests sent
 * @param answered requests answered (within the drain time)
 * @param failed answered requests whose answer was a failure (rejected, failed, timed out)
 * @param throughput answers per second the phase achieved
 * @param cpu cores this JVM used while the phase sent requests
 */
public record PhaseResult(
    String system, String phase, Histogram latencyMicros, long sent, long answered, long failed,
    double throughput, CpuUse cpu) {
  public PhaseResult {
    requireNonNull(system, "system must not be null");
    requireNonNull(phase, "phase must not be null");
    requireNonNull(latencyMicros, "latencyMicros must not be null");
    requireNonNull(cpu, "cpu must not be null");
  }

  /** The latency at {@code percentile} (0–100) in milliseconds. */
  public double millisAt(double percentile) {
    return latencyMicros.getValueAtPercentile(percentile) / 1_000.0;
  }
}
