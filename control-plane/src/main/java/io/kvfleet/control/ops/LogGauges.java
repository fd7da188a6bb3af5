package io.kvfleet.control.ops;

import io.kvfleet.control.coordinator.CoordinatorView;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * What the coordinator's reading of the log looks like now: lag per partition (its end offset
 * less the next offset the fold would read), events it has folded, poison records (dead-lettered),
 * events the log lost before it read them, and its publisher's buffer.
 */
final class LogGauges {
  private final CoordinatorView view;
  private final Gauges lag;

  LogGauges(MeterRegistry registry, CoordinatorView view) {
    this.view = view;
    this.lag = new Gauges(registry, "kvfleet_consumer_lag_records", "records in the partition not yet folded");
    Gauge.builder("kvfleet_publisher_buffer_events", view, CoordinatorView::publisherWaiting)
        .description("events the coordinator's publisher holds that Kafka has not acknowledged").register(registry);
    Gauge.builder("kvfleet_publisher_buffer_capacity_events", view, CoordinatorView::publisherCapacity)
        .description("the most events the publisher holds").register(registry);
    Gauge.builder("kvfleet_poison_records", view, v -> v.status().poison())
        .description("records this coordinator could not fold (tombstones, undecodable, unknown or newer types,"
            + " events on the wrong topic), each copied once to kvfleet.deadletter by its partition's owner")
        .register(registry);
    Gauge.builder("kvfleet_log_missing_events", view, v -> v.status().missingEvents())
        .description("events the coordinator needed that the log had deleted before it read them (a retention"
            + " shorter than the fleet's life, no snapshot past them): its state lacks what they said")
        .register(registry);
  }

  /** Asks Kafka for the end offsets and sets the lag of each partition. */
  void refresh() {
    view.endOffsets().onSuccess(ends -> {
      var next = view.position().nextOffsets();
      ends.forEach((partition, end) -> {
        int dash = partition.lastIndexOf('-');
        long lagNow = Math.max(0, end - next.getOrDefault(partition, 0L));
        lag.set(lagNow, "topic", partition.substring(0, dash), "partition", partition.substring(dash + 1));
      });
    });
  }
}
