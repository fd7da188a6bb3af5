package io.kvfleet.control.ops;

import io.kvfleet.events.replay.FoldOrder;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The folded metrics as plain numbers, by name and labels: each {@code kvfleet_} counter, and each
 * phase timer's count and total nanoseconds. Two folds of the same records give equal maps.
 */
public final class Counters {
  /** The counters at one moment, the fold order they cover and the state hash it reached. */
  public record At(SortedMap<String, Double> counters, FoldOrder order, String hash) {}

  private Counters() {}

  /** The {@code kvfleet_} counters and phase timers in {@code registry}. */
  public static SortedMap<String, Double> of(MeterRegistry registry) {
    var all = new TreeMap<String, Double>();
    for (Meter meter : registry.getMeters()) {
      String name = meter.getId().getName();
      if (!name.startsWith("kvfleet_")) {
        continue;
      }
      String key = name + meter.getId().getTags().stream().map(t -> t.getKey() + "=" + t.getValue())
          .collect(Collectors.joining(",", "{", "}"));
      switch (meter) {
        case Counter c -> all.put(key, c.count());
        case Timer t -> {
          all.put(key + ".count", (double) t.count());
          all.put(key + ".totalNanos", t.totalTime(TimeUnit.NANOSECONDS));
        }
        default -> { } // gauges read the state now, not the records
      }
    }
    return all;
  }
}
