package io.kvfleet.control.ops;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Gauges of one name whose label sets come and go: {@link #set} what is there now, and those not
 * set since the last {@link #reset} read 0 (a Prometheus series is not removed while scraped).
 */
final class Gauges {
  private final MeterRegistry registry;
  private final String name;
  private final String description;
  private final Map<Tags, AtomicLong> values = new HashMap<>();

  Gauges(MeterRegistry registry, String name, String description) {
    this.registry = registry;
    this.name = name;
    this.description = description;
  }

  void reset() {
    values.values().forEach(v -> v.set(0));
  }

  void add(long value, String... tags) {
    values.computeIfAbsent(Tags.of(tags), t -> {
      var holder = new AtomicLong();
      Gauge.builder(name, holder, AtomicLong::get).tags(t).description(description).register(registry);
      return holder;
    }).addAndGet(value);
  }

  void set(long value, String... tags) {
    add(0, tags);
    values.get(Tags.of(tags)).set(value);
  }
}
