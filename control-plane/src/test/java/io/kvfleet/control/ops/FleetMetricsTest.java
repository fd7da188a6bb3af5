package io.kvfleet.control.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.RegistrationFailed;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.replay.LogPosition;
import io.kvfleet.events.replay.LogRecord;
import io.kvfleet.events.state.FleetState;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class FleetMetricsTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final BackendCapability UCX =
      new BackendCapability("ucx", true, "1.13", List.of(MemoryType.DRAM), List.of("tcp"), "no cuda memory domain");
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final FleetMetrics metrics = new FleetMetrics(registry);
  private final FleetState state = new FleetState();
  private final List<LogRecord> log = new ArrayList<>();
  private long offset;

  @Test
  void countsRegistrationsByOutcomeReasonBackendMemoryTypeAndKind() {
    fold("prefill-0", 1, 0, joined("prefill-0", 1));
    fold("prefill-0", 2, 1, new RegionRegistered("prefill-0", 1, region("kv-0", MemoryType.DRAM), "ucx", "rk"));
    fold("prefill-0", 3, 2, new RegistrationFailed("prefill-0", 1, region("state-0", MemoryType.VRAM), "ucx",
        "NO_MEMORY_DOMAIN", "", 0, "", UCX, "build UCX with CUDA"));
    fold("prefill-0", 4, 3, new RegistrationFailed("prefill-0", 1, region("state-1", MemoryType.VRAM), "cuda",
        "DEVICE_UNAVAILABLE", "", 35, "insufficient driver", UCX, "install a driver"));

    assertThat(count("kvfleet_registrations", "outcome", "registered", "backend", "ucx", "memory_type", "DRAM",
        "kind", "KV", "reason", "NONE")).isEqualTo(1);
    assertThat(count("kvfleet_registrations", "outcome", "failed", "backend", "ucx", "memory_type", "VRAM",
        "kind", "STATE", "reason", "NO_MEMORY_DOMAIN")).isEqualTo(1);
    assertThat(count("kvfleet_engine_native_errors", "backend", "cuda", "op", "register", "code", "35")).isEqualTo(1);
    assertThat(registry.find("kvfleet_engine_native_errors").tag("backend", "ucx").counter())
        .as("a failure without a native code is no native error").isNull();
  }

  @Test
  void aRedeliveredEventCountsOnce() {
    var record = record("prefill-0", 1, 0, joined("prefill-0", 1));
    replay(record);
    replay(record);

    assertThat(count("kvfleet_peer_joins", "role", "prefill")).isEqualTo(1);
    assertThat(count("kvfleet_events_folded", "type", "io.kvfleet.peer.joined")).isEqualTo(1);
  }

  @Test
  void countsEpochChangesAndExpiredLeasesByRole() {
    fold("decode-0", 1, 0, joined("decode-0", 1));
    fold("decode-0", 2, 100, new PeerLost("decode-0", 1, "LEASE_EXPIRED", 0));
    fold("decode-0", 3, 200, joined("decode-0", 2));

    assertThat(count("kvfleet_epoch_changes", "role", "decode")).isEqualTo(1);
    assertThat(count("kvfleet_leases_expired", "role", "decode", "reason", "LEASE_EXPIRED")).isEqualTo(1);
  }

  @Test
  void splitsACompletedTransferIntoItsPhases() {
    fold("router-0", 1, 0, request("t-1"));
    fold("coordinator-0", 1, 3, new TransferDispatched("t-1", "prefill-0", "coordinator-0"));
    // Done 10 ms after the decision, 4 ms of it in the engine; in the log 2 ms after it was written.
    fold("prefill-0", 1, 13, new TransferCompleted("t-1", "prefill-0", 4096, 4_000_000, "ucx/tcp", ""), 15);

    assertThat(millis("request_to_decision")).isEqualTo(3);
    assertThat(millis("engine")).isEqualTo(4);
    assertThat(millis("decision_to_engine")).isEqualTo(6);
    assertThat(millis("outcome_to_log")).isEqualTo(2);
    assertThat(millis("end_to_end")).isEqualTo(15);
    assertThat(count("kvfleet_transfers", "outcome", "completed", "reason", "NONE")).isEqualTo(1);
    assertThat(count("kvfleet_transfer_bytes", "path", "ucx/tcp")).isEqualTo(4096);
    assertThat(metrics.pending()).isZero();
  }

  /**
   * The source's own failure after the coordinator failed the transfer (a late outcome), and an end of a
   * transfer never requested: neither is an ending of the fold, so the endings add up to what a replay
   * counts (the dashboard counted 9 endings for 7 requests).
   */
  @Test
  void anEndTheFoldDoesNotKeepIsNotCountedAsAnEnding() {
    fold("router-0", 1, 0, request("t-4"));
    fold("coordinator-0", 1, 1, new TransferDispatched("t-4", "prefill-0", "coordinator-0"));
    fold("coordinator-0", 2, 2, new TransferFailed("t-4", "prefill-0", "PEER_LOST", 0, "prefill-0 lost"));
    fold("prefill-0", 1, 3, new TransferFailed("t-4", "prefill-0", "LEASE_UNPROVEN", 0, "fenced"));
    fold("prefill-0", 2, 4, new TransferFailed("t-never", "prefill-0", "TRANSPORT_ERROR", 0, "no request"));

    assertThat(count("kvfleet_transfers", "outcome", "failed", "reason", "PEER_LOST")).isEqualTo(1);
    assertThat(registry.find("kvfleet_transfers").counters()).hasSize(1);
    assertThat(count("kvfleet_transfer_outcomes_not_kept", "outcome", "failed", "reason", "LEASE_UNPROVEN"))
        .isEqualTo(1);
    assertThat(count("kvfleet_transfer_outcomes_not_kept", "outcome", "failed", "reason", "TRANSPORT_ERROR"))
        .isEqualTo(1);
    assertThat(state.counts().lateOutcomes()).isEqualTo(1);
  }

  @Test
  void countsFailedTransfersByReasonAndTheirNativeCode() {
    fold("router-0", 1, 0, request("t-2"));
    fold("router-0", 2, 0, request("t-3"));
    fold("coordinator-0", 1, 1, new TransferDispatched("t-3", "prefill-0", "coordinator-0"));
    fold("coordinator-0", 2, 1, new TransferFailed("t-2", "prefill-0", "PEER_LOST", 0, "decode-0 lost"));
    fold("prefill-0", 1, 2, new TransferFailed("t-3", "prefill-0", "TRANSPORT_ERROR", -25, "ucp_put failed"));

    assertThat(count("kvfleet_transfers", "outcome", "failed", "reason", "PEER_LOST")).isEqualTo(1);
    assertThat(count("kvfleet_transfers", "outcome", "failed", "reason", "TRANSPORT_ERROR")).isEqualTo(1);
    assertThat(count("kvfleet_engine_native_errors", "backend", "transfer", "op", "transfer", "code", "-25"))
        .isEqualTo(1);
    assertThat(registry.find("kvfleet_transfer_phase").tag("phase", "engine").timer())
        .as("a failure has no engine time").isNull();
  }

  @Test
  void countsAMalformedRecordByTopic() {
    metrics.folded(new LogRecord(new LogPosition("kvfleet.nodes", 0, 7), T0, "",
        new Decoded.Malformed("not JSON", new byte[] {1})), state, false);

    assertThat(count("kvfleet_records_malformed", "topic", "kvfleet.nodes")).isEqualTo(1);
  }

  @Test
  void theSameRecordsGiveTheSameCountersInAnotherFold() {
    fold("prefill-0", 1, 0, joined("prefill-0", 1));
    fold("router-0", 1, 1, request("t-1"));
    fold("coordinator-0", 1, 2, new TransferDispatched("t-1", "prefill-0", "coordinator-0"));
    fold("prefill-0", 2, 5, new TransferCompleted("t-1", "prefill-0", 4096, 1_000_000, "ucx/tcp", ""), 6);

    var again = new FleetMetrics(new SimpleMeterRegistry());
    var replayState = new FleetState();
    for (var r : log) {
      again.replayed(r, replayState);
    }
    assertThat(Counters.of(again.registry())).isEqualTo(Counters.of(registry)).isNotEmpty();
  }

  /**
   * A writer that varies the strings it writes (a forged record, a buggy agent) made a time series of each:
   * 10,000 reasons, backends and native codes were 10,000 series the coordinator kept and Prometheus scraped.
   */
  @Test
  void labelValuesARecordChoosesAreBoundedAndNothingGoesUncounted() {
    int writes = 10_000;
    for (int i = 0; i < writes; i++) {
      fold("router-0", i + 1, i, request("t-" + i));
      fold("coordinator-0", i + 1, i, new TransferDispatched("t-" + i, "prefill-0", "coordinator-0"));
      fold("prefill-0", i + 1, i, new TransferFailed("t-" + i, "prefill-0", "REASON_" + i, 1_000 + i, "forged"));
      fold("mallory", i + 1, i, new RegistrationFailed("prefill-0", 1, region("r-" + i, MemoryType.DRAM),
          "backend-" + i, "NO_MEMORY_DOMAIN", "", 0, "", UCX, ""));
    }
    fold("coordinator-0", writes + 1, writes, new TransferFailed("t-known", "prefill-0", "PEER_LOST", 0, ""));

    var failed = registry.find("kvfleet_transfers").tag("outcome", "failed").counters();
    assertThat(failed).hasSize(LabelValues.PER_LABEL + 1);
    assertThat(failed.stream().mapToDouble(c -> c.count()).sum()).isEqualTo(writes);
    assertThat(count("kvfleet_transfers", "outcome", "failed", "reason", LabelValues.OTHER))
        .isEqualTo(writes - LabelValues.PER_LABEL);
    assertThat(count("kvfleet_transfers", "outcome", "failed", "reason", "REASON_0")).isEqualTo(1);
    assertThat(registry.find("kvfleet_engine_native_errors").counters()).hasSize(LabelValues.PER_LABEL + 1);
    var registrations = registry.find("kvfleet_registrations").counters();
    assertThat(registrations).hasSize(LabelValues.PER_LABEL + 1);
    assertThat(registrations.stream().mapToDouble(c -> c.count()).sum()).isEqualTo(writes);
    assertThat(count("kvfleet_metric_label_values_capped", "label", "backend"))
        .isEqualTo(writes - LabelValues.PER_LABEL);
    // A backend this build knows keeps its own series, however many unknown ones came first.
    fold("prefill-0", writes + 1, writes, new RegionRegistered("prefill-0", 1, region("kv-9", MemoryType.DRAM), "ucx",
        "rk"));
    assertThat(count("kvfleet_registrations", "outcome", "registered", "backend", "ucx", "reason", "NONE"))
        .isEqualTo(1);
    // A reason this build knows keeps its own series, however many unknown ones came first.
    assertThat(count("kvfleet_transfer_outcomes_not_kept", "outcome", "failed", "reason", "PEER_LOST")).isEqualTo(1);
  }

  @Test
  void aLabelValueNotShapedLikeOneIsCountedAsOther() {
    fold("router-0", 1, 0, request("t-9"));
    fold("coordinator-0", 1, 0, new TransferDispatched("t-9", "prefill-0", "coordinator-0"));
    fold("prefill-0", 1, 1, new TransferFailed("t-9", "prefill-0", "a reason\nwith { spaces }", 0, ""));

    assertThat(count("kvfleet_transfers", "outcome", "failed", "reason", LabelValues.OTHER)).isEqualTo(1);
  }

  private void fold(String producer, long sequence, long atMillis, FleetEvent event) {
    fold(producer, sequence, atMillis, event, atMillis);
  }

  private void fold(String producer, long sequence, long atMillis, FleetEvent event, long loggedMillis) {
    var envelope = Envelope.of(producer, 1, sequence, T0.plusMillis(atMillis), "", event);
    var r = new LogRecord(new LogPosition("kvfleet.test", 0, offset++), T0.plusMillis(loggedMillis), "",
        new Decoded.Event(envelope));
    log.add(r);
    replay(r);
  }

  private LogRecord record(String producer, long sequence, long atMillis, FleetEvent event) {
    var envelope = Envelope.of(producer, 1, sequence, T0.plusMillis(atMillis), "", event);
    return new LogRecord(new LogPosition("kvfleet.test", 0, offset++), T0.plusMillis(atMillis), "",
        new Decoded.Event(envelope));
  }

  private void replay(LogRecord r) {
    metrics.replayed(r, state);
  }

  private double count(String name, String... tags) {
    var counter = registry.find(name).tags(tags).counter();
    assertThat(counter).as(name + " " + String.join(",", tags)).isNotNull();
    return counter.count();
  }

  private long millis(String phase) {
    var timer = registry.find("kvfleet_transfer_phase").tag("phase", phase).timer();
    assertThat(timer).as(phase).isNotNull();
    assertThat(timer.count()).isEqualTo(1);
    return Math.round(timer.totalTime(TimeUnit.MICROSECONDS) / 1000.0);
  }

  private static PeerJoined joined(String node, long epoch) {
    return new PeerJoined(node, epoch, "127.0.0.1", "", List.of(UCX));
  }

  private static RegionSpec region(String id, MemoryType type) {
    return new RegionSpec(id, type == MemoryType.DRAM ? RegionKind.KV : RegionKind.STATE, type, 0, 4096, 65536, 4096,
        "c", 0);
  }

  private static TransferRequested request(String id) {
    return new TransferRequested(id, "prefill-0", 1, "kv-0", "decode-0", 1, "kv-0", TransferOp.WRITE,
        List.of(new ByteRange(0, 0, 4096)), T0.plus(Duration.ofMinutes(1)).toEpochMilli(), false);
  }
}
