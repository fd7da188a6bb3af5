package io.kvfleet.control.bench;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Cores this JVM used during a phase: in all, and by part of the system; and its garbage
 * collector's stop-the-world pauses, which stop every thread, the embedded broker's included.
 *
 * @param cores part to cores used, largest first
 * @param gcPauses stop-the-world collections during the phase
 * @param gcPauseMillis their total length
 * @param allocatedBytes heap allocated by this JVM's threads during the phase
 * @param compileTime the compilation bean's elapsed compile time per second of the phase (a compile
 *     waiting for a core counts, so on a loaded machine it exceeds the compilers' CPU)
 * @param brokerCores cores the broker's own JVM used, NaN when the broker runs in this JVM
 */
public record CpuUse(
    double total, Map<String, Double> cores, long gcPauses, long gcPauseMillis, long allocatedBytes,
    double compileTime, double brokerCores) {
  public CpuUse {
    requireNonNull(cores, "cores must not be null");
  }

  /** A phase's use without the compile-time figure and with the broker in this JVM. */
  public CpuUse(double total, Map<String, Double> cores, long gcPauses, long gcPauseMillis, long allocatedBytes) {
    this(total, cores, gcPauses, gcPauseMillis, allocatedBytes, Double.NaN, Double.NaN);
  }

  /**
   * One line, e.g. {@code 1.93 cores: broker 0.61, event loops 0.40; GC pauses 12, 640 ms;
   * allocated 900 MB}; parts
   * under 0.01 cores left out.
   */
  public String format() {
    return String.format(Locale.ROOT, "%.2f cores: ", total) + cores.entrySet().stream()
        .filter(e -> e.getValue() >= 0.005)
        .map(e -> String.format(Locale.ROOT, "%s %.2f", e.getKey(), e.getValue()))
        .collect(Collectors.joining(", "))
        + String.format(Locale.ROOT, "; GC pauses %d, %d ms; allocated %d MB", gcPauses, gcPauseMillis,
            allocatedBytes >> 20)
        + (Double.isNaN(compileTime) ? "" : String.format(Locale.ROOT, "; compile time %.2f/s", compileTime))
        + (Double.isNaN(brokerCores) ? "" : String.format(Locale.ROOT, "; broker JVM %.2f cores", brokerCores));
  }
}
