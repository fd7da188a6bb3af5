package io.kvfleet.control.ops;

import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSkipped;
import io.kvfleet.events.RegistrationFailed;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferFailed;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.Consumer;

/**
 * A node's own outcomes on its own {@code /metrics}, counted as Kafka took them: what this agent moved and
 * registered, without a coordinator to ask ({@code kvfleet_agent_transfers_total{outcome,reason}},
 * {@code kvfleet_agent_transfer_bytes_total{path}}, {@code kvfleet_agent_registrations_total{outcome,reason,
 * backend}}, each with its {@code node}). Only the agent's own outcomes pass here, but their reasons and backends
 * come from its engine, so the labels are bounded as the coordinator's are ({@link LabelValues}).
 */
public final class AgentOutcomes implements Consumer<FleetEvent> {
  private final MeterRegistry registry;
  private final String node;
  private final LabelValues labels;

  public AgentOutcomes(MeterRegistry registry, String node) {
    this.registry = registry;
    this.node = node;
    this.labels = new LabelValues(label -> registry.counter("kvfleet_metric_label_values_capped", "label", label)
        .increment());
  }

  /** Counts one outcome the agent published (its incarnations may call from more than one thread). */
  @Override
  public synchronized void accept(FleetEvent event) {
    switch (event) {
      case TransferCompleted c -> {
        transfer("completed", "NONE");
        registry.counter("kvfleet_agent_transfer_bytes", "node", node, "path", labels.of("path", c.path()))
            .increment(c.bytes());
      }
      case TransferFailed f -> transfer("failed", f.reason());
      case RegionRegistered r -> registration("registered", "NONE", r.backend());
      case RegistrationFailed f -> registration("failed", f.reason(), f.backend());
      case RegionSkipped s -> registration("skipped", s.reason(), "none");
      default -> { } // the agent publishes no other outcome
    }
  }

  private void transfer(String outcome, String reason) {
    registry.counter("kvfleet_agent_transfers", "node", node, "outcome", outcome, "reason", labels.of("reason", reason))
        .increment();
  }

  private void registration(String outcome, String reason, String backend) {
    registry.counter("kvfleet_agent_registrations", "node", node, "outcome", outcome, "reason",
        labels.of("reason", reason), "backend", labels.of("backend", backend)).increment();
  }
}
