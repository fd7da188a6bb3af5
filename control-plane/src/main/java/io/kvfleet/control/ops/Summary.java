package io.kvfleet.control.ops;

import io.kvfleet.control.coordinator.CoordinatorView;
import io.kvfleet.events.snapshot.StateHash;
import io.kvfleet.events.state.Counts;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * What the dashboard's charts sample: the fleet's counts, transfer totals and each phase's count
 * and total time (the page turns the differences between samples into throughput and latency).
 */
final class Summary {
  /** One phase's timer so far. */
  record Phase(long count, double totalSeconds, double maxSeconds) {}

  /** A sample. */
  record Now(long atMillis, boolean caughtUp, String hash, Counts counts, Map<String, Double> transfers,
      double bytesMoved, Map<String, Phase> phases) {}

  private final MeterRegistry registry;

  Summary(MeterRegistry registry) {
    this.registry = registry;
  }

  Now now(CoordinatorView view) {
    var transfers = new TreeMap<String, Double>();
    registry.find("kvfleet_transfers").counters().forEach(c ->
        transfers.merge(c.getId().getTag("outcome"), c.count(), Double::sum));
    double bytes = registry.find("kvfleet_transfer_bytes").counters().stream().mapToDouble(c -> c.count()).sum();
    var phases = new TreeMap<String, Phase>();
    for (Timer t : registry.find("kvfleet_transfer_phase").timers()) {
      phases.put(t.getId().getTag("phase"),
          new Phase(t.count(), t.totalTime(TimeUnit.SECONDS), t.max(TimeUnit.SECONDS)));
    }
    var status = view.status();
    return new Now(System.currentTimeMillis(), status.caughtUp(), StateHash.of(view.state()), view.state().counts(),
        transfers, bytes, phases);
  }
}
