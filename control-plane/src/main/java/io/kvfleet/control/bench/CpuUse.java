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
 */
public record CpuUse(
    double total, Map<String, Double> cores, long gcPauses, long gcPauseMillis, long allocatedBytes) {
  public CpuUse {
    requireNonNull(cores, "cores must not be null");
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
            allocatedBytes >> 20);
  }
}
