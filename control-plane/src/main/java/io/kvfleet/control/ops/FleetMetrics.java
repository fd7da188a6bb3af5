package io.kvfleet.control.ops;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.ModelLayoutDeclared;
import io.kvfleet.events.OpaqueEvent;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionDeregistered;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSkipped;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.RegistrationDecision;
import io.kvfleet.events.RegistrationFailed;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.TransferTimedOut;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.replay.LogRecord;
import io.kvfleet.events.state.FleetState;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The fleet's metrics, folded from the log's records: registrations, decisions, transfers and
 * their phases, peers, and what the fold read. The same records give the same counters, whether
 * the coordinator folds them live or a replay does. One thread calls it (the coordinator's event
 * loop, or the replay's); {@link StateGauges} adds what is read from the state.
 */
public final class FleetMetrics {
  private final MeterRegistry registry;
  private final TransferPhases phases = new TransferPhases();
  private final Map<String, Long> epochs = new HashMap<>();
  private final Map<String, Timer> timers = new HashMap<>();
  private final LabelValues labels;

  public FleetMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.labels = new LabelValues(label -> registry.counter("kvfleet_metric_label_values_capped", "label", label)
        .increment());
  }

  /** The registry the metrics are in. */
  public MeterRegistry registry() {
    return registry;
  }

  /**
   * Counts {@code record}, just folded into {@code state}; a redelivered event counts once (the fold
   * skipped it), and a transfer's end counts as its ending only if the fold kept it (a late outcome, or
   * an end of a transfer the fold does not hold, is counted apart), so the endings add up as a replay's do.
   */
  public void folded(LogRecord record, FleetState state, boolean redelivered) {
    switch (record.value()) {
      case Decoded.Event e -> {
        if (!redelivered) {
          event(record, e.envelope(), state);
        }
      }
      case Decoded.Malformed m -> registry.counter("kvfleet_records_malformed", "topic", record.position().topic())
          .increment();
    }
  }

  /** Folds a replay's next record into {@code state} and counts it. */
  public void replayed(LogRecord record, FleetState state) {
    boolean redelivered = record.value() instanceof Decoded.Event e
        && state.hasSeen(e.envelope().producer(), e.envelope().epoch(), e.envelope().sequence());
    if (record.value() instanceof Decoded.Event e) {
      state.apply(e.envelope());
    }
    folded(record, state, redelivered);
  }

  private void event(LogRecord record, Envelope envelope, FleetState state) {
    FleetEvent data = envelope.data();
    registry.counter("kvfleet_events_folded", "type", labels.of("type", data.wireType())).increment();
    switch (data) {
      case PeerJoined j -> joined(j);
      case PeerHeartbeat h -> { } // liveness is the state's (peers alive)
      case PeerLost l -> registry.counter("kvfleet_leases_expired", "role", Roles.of(l.nodeId()), "reason",
          labels.of("reason", l.reason()))
          .increment();
      case PeerLeft l -> registry.counter("kvfleet_peer_departures", "role", Roles.of(l.nodeId())).increment();
      case RegionRegistered r -> registration("registered", "NONE", r.backend(), r.region());
      case RegistrationFailed f -> {
        registration("failed", f.reason(), f.backend(), f.region());
        nativeError(f.backend(), "register", f.nativeCode());
      }
      case RegionSkipped s -> registration("skipped", s.reason(), "none", s.region());
      case RegionDeregistered d -> registry.counter("kvfleet_deregistrations").increment();
      case RegistrationDecision d -> registry.counter("kvfleet_registration_decisions", "policy",
          labels.of("policy", d.policy()))
          .increment(); // its outcome is a sentence, not a label
      case TransferRequested r -> {
        registry.counter("kvfleet_transfers_requested").increment();
        phases.requested(r.transferId(), envelope.time());
      }
      case TransferDispatched d -> phases.decided(d.transferId(), envelope.time())
          .ifPresent(t -> phase("request_to_decision", t));
      case TransferRejected r -> {
        phases.decided(r.transferId(), envelope.time()).ifPresent(t -> phase("request_to_decision", t));
        ended(record, envelope, state, r.transferId(), "rejected", r.reason(), Duration.ZERO);
      }
      case TransferCompleted c -> {
        registry.counter("kvfleet_transfer_bytes", "path", labels.of("path", c.path())).increment(c.bytes());
        phase("engine", Duration.ofNanos(c.durationNanos()));
        ended(record, envelope, state, c.transferId(), "completed", "NONE", Duration.ofNanos(c.durationNanos()));
      }
      case TransferFailed f -> {
        nativeError("transfer", "transfer", f.nativeCode());
        ended(record, envelope, state, f.transferId(), "failed", f.reason(), Duration.ZERO);
      }
      case TransferTimedOut t -> ended(record, envelope, state, t.transferId(), "timed_out", ReasonCodes.DEADLINE_PASSED,
          Duration.ZERO);
      case ModelLayoutDeclared l -> registry.counter("kvfleet_layouts_declared", "role", Roles.of(l.nodeId()))
          .increment();
      case OpaqueEvent o -> { } // counted by type above
    }
  }

  private void joined(PeerJoined j) {
    String role = Roles.of(j.nodeId());
    registry.counter("kvfleet_peer_joins", "role", role).increment();
    Long before = epochs.put(j.nodeId(), j.epoch());
    if (before != null && before != j.epoch()) {
      registry.counter("kvfleet_epoch_changes", "role", role).increment();
    }
  }

  private void registration(String outcome, String reason, String backend, RegionSpec region) {
    registry.counter("kvfleet_registrations", "outcome", outcome, "reason", labels.of("reason", reason), "backend",
        labels.of("backend", backend),
        "memory_type", region.memoryType().name(), "kind", region.kind().name()).increment();
  }

  private void nativeError(String backend, String op, long code) {
    if (code != 0) {
      registry.counter("kvfleet_engine_native_errors", "backend", labels.of("backend", backend), "op", op, "code",
          labels.of("code", Long.toString(code)))
          .increment();
    }
  }

  /** A transfer's end: its outcome, and the phases its request and decision times allow. */
  private void ended(LogRecord record, Envelope envelope, FleetState state, String transferId, String outcome,
      String reason, Duration engine) {
    if (!endedNow(state, envelope, transferId, outcome)) {
      registry.counter("kvfleet_transfer_outcomes_not_kept", "outcome", outcome, "reason", labels.of("reason", reason))
          .increment();
      return;
    }
    registry.counter("kvfleet_transfers", "outcome", outcome, "reason", labels.of("reason", reason)).increment();
    var times = phases.ended(transferId);
    if (times.isEmpty()) {
      return; // its request came before this fold started (a snapshot) or was dropped
    }
    Instant durable = record.timestamp();
    phase("outcome_to_log", TransferPhases.between(envelope.time(), durable));
    phase("end_to_end", TransferPhases.between(times.get().requested(), durable));
    if (!outcome.equals("rejected") && times.get().decided() != null) {
      var afterDecision = TransferPhases.between(times.get().decided(), envelope.time()).minus(engine);
      phase("decision_to_engine", afterDecision.isNegative() ? Duration.ZERO : afterDecision);
    }
  }

  /**
   * Whether the fold ended the transfer with this event: it holds the transfer, ended by this event's
   * writer for this reason. A second end (a late outcome racing the first, or a violation) is not its ending.
   */
  private static boolean endedNow(FleetState state, Envelope envelope, String transferId, String outcome) {
    return state.transfer(transferId).filter(t -> t.status().name().toLowerCase(java.util.Locale.ROOT).equals(outcome)
        && t.endedBy().equals(envelope.producer()) && !t.updatedAt().isBefore(envelope.time())).isPresent();
  }

  private void phase(String name, Duration took) {
    timer(name).record(took.toNanos(), TimeUnit.NANOSECONDS);
  }

  private Timer timer(String phase) {
    return timers.computeIfAbsent(phase, p -> Timer.builder("kvfleet_transfer_phase").tag("phase", p)
        .description("a transfer's phases: request_to_decision, decision_to_engine, engine, outcome_to_log, end_to_end")
        .publishPercentileHistogram().minimumExpectedValue(Duration.ofNanos(10_000)).maximumExpectedValue(Duration.ofMinutes(5))
        .register(registry));
  }

  /** The phases a transfer's timings are split into. */
  public static final Set<String> PHASES =
      Set.of("request_to_decision", "decision_to_engine", "engine", "outcome_to_log", "end_to_end");

  /** Transfers whose request was seen and whose end was not (yet). */
  int pending() {
    return phases.size();
  }
}
