package io.kvfleet.events.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.EventType;
import io.kvfleet.events.OpaqueEvent;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegistrationFailed;
import io.kvfleet.events.Samples;
import io.kvfleet.events.snapshot.StateHash;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A forgetting fold's memory does not grow with what a writer chooses to name: types, epochs, reasons, stale regions. */
class BoundedByWritersTest {
  private static PeerJoined joined(String node, long epoch) {
    var sample = (PeerJoined) Samples.of(EventType.PEER_JOINED);
    return new PeerJoined(node, epoch, sample.host(), sample.transportAddress(), sample.capabilities());
  }

  private static FleetState forgetting(Log log) {
    var state = FleetState.keepingEnded(Duration.ofMinutes(10));
    log.envelopes().forEach(state::apply);
    return state;
  }

  @Test
  void countsTypesBeyondTheKeptOnesAndOverlongOnesUnderOneName() {
    var log = new Log();
    for (int i = 0; i < FleetState.KEPT_TYPES * 3; i++) {
      log.append("r0", 1, new OpaqueEvent("", "", "io.example.t" + i, 1, "{}"));
    }
    log.append("r0", 1, new OpaqueEvent("", "", "io.example.t0", 1, "{}"));
    log.append("r0", 1, new OpaqueEvent("", "", "x".repeat(FleetState.KEPT_TYPE_LENGTH + 1), 1, "{}"));

    FleetState state = forgetting(log);

    assertThat(state.opaqueByType()).hasSize(FleetState.KEPT_TYPES).containsEntry("io.example.t0", 2L)
        .containsEntry(FleetState.OTHER_TYPES, FleetState.KEPT_TYPES * 2L + 2);
    assertThat(state.counts().opaque()).isEqualTo(FleetState.KEPT_TYPES * 3L + 2);
  }

  @Test
  void aReplayCountsEveryTypeByName() {
    var log = new Log();
    for (int i = 0; i < FleetState.KEPT_TYPES * 2; i++) {
      log.append("r0", 1, new OpaqueEvent("", "", "io.example.t" + i, 1, "{}"));
    }

    assertThat(log.fold().opaqueByType()).hasSize(FleetState.KEPT_TYPES * 2);
  }

  /**
   * A node (or anyone, in an unsigned fleet) naming ever new failure reasons and stale regions grew
   * a coordinator's fold, and its snapshots, without end (RELIABILITY.md, fifth stop). Bounded now,
   * and a node that names many pushes out neither this build's reason codes nor another node's regions.
   */
  @Test
  void countsReasonsBeyondTheKeptOnesAndKeepsAtMostKeptStaleRegionsPerNode() {
    var failed = Samples.stateTensorFailure("prefill-0", 2);
    var registered = (RegionRegistered) Samples.of(EventType.REGION_REGISTERED);
    var log = new Log().append("prefill-0", 2, joined("prefill-0", 2)).append("decode-0", 2, joined("decode-0", 2))
        .append("decode-0", 2, new RegionRegistered("decode-0", 1, Samples.kv("kv-old"), registered.backend(),
            registered.remoteKey()));
    int flood = Regions.KEPT_STALE_KEYS_PER_NODE + 500;
    for (int i = 0; i < flood; i++) {
      log.append("prefill-0", 2, new RegistrationFailed("prefill-0", 2, failed.region(), failed.backend(),
          i % 2 == 0 ? "REASON_" + i : "not a code " + i, "", 0, "", failed.capability(), ""));
      log.append("prefill-0", 2, new RegionRegistered("prefill-0", 1, Samples.kv("stale-" + i), registered.backend(),
          registered.remoteKey()));
    }
    log.append("prefill-0", 2, new RegistrationFailed("prefill-0", 2, failed.region(), failed.backend(),
        ReasonCodes.INVALID_ADDRESS, "", 0, "", failed.capability(), ""));

    FleetState state = forgetting(log);

    assertThat(state.failuresByReason()).hasSize(Regions.KEPT_REASONS + 2).containsEntry("REASON_0", 1L)
        .containsEntry(ReasonCodes.INVALID_ADDRESS, 1L).containsKey(Regions.OTHER_REASONS);
    assertThat(state.failuresByReason().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(flood + 1L);
    assertThat(state.image().staleKeys()).hasSize(Regions.KEPT_STALE_KEYS_PER_NODE + 1)
        .contains(new RegionKey("decode-0", "kv-old"), new RegionKey("prefill-0", "stale-999"))
        .doesNotContain(new RegionKey("prefill-0", "stale-0"));
    assertThat(log.fold().failuresByReason()).as("a replay counts every reason by name").hasSize(flood + 1);
  }

  /** Many node ids (only an unsigned fleet's writers can use them) share the 10,000 in all. */
  @Test
  void keepsAtMostKeptStaleRegionsInAll() {
    var registered = (RegionRegistered) Samples.of(EventType.REGION_REGISTERED);
    var log = new Log();
    int nodes = Regions.KEPT_STALE_KEYS / Regions.KEPT_STALE_KEYS_PER_NODE + 1;
    for (int n = 0; n < nodes; n++) {
      log.append("n-" + n, 2, joined("n-" + n, 2));
      for (int i = 0; i < Regions.KEPT_STALE_KEYS_PER_NODE; i++) {
        log.append("n-" + n, 2, new RegionRegistered("n-" + n, 1, Samples.kv("stale-" + i), registered.backend(),
            registered.remoteKey()));
      }
    }

    assertThat(forgetting(log).image().staleKeys()).hasSize(Regions.KEPT_STALE_KEYS)
        .doesNotContain(new RegionKey("n-0", "stale-0"));
  }

  /** Every code is spelled as its name: a fold counts by these, and a code is named by what it says. */
  @Test
  void everyReasonCodeIsItsOwnName() throws Exception {
    for (var field : ReasonCodes.class.getFields()) {
      if (field.getType() == String.class) {
        assertThat(field.get(null)).as(field.getName()).isEqualTo(field.getName());
        assertThat(ReasonCodes.isKnown(field.getName())).isTrue();
      }
    }
    assertThat(ReasonCodes.isKnown("REASON_0")).isFalse();
  }

  /** The bounds depend on what the fold holds, not on its history: a fold restored half way forgets the same. */
  @Test
  void aFoldRestoredFromItsImageHalfWayReachesTheSameHash() {
    var registered = (RegionRegistered) Samples.of(EventType.REGION_REGISTERED);
    var log = new Log().append("prefill-0", 2, joined("prefill-0", 2));
    for (int i = 0; i < Regions.KEPT_STALE_KEYS_PER_NODE * 3; i++) {
      log.append("prefill-0", 2, new RegionRegistered("prefill-0", 1, Samples.kv("stale-" + (i * 7919 % 3001)),
          registered.backend(), registered.remoteKey()));
    }
    var envelopes = log.envelopes();
    var whole = FleetState.keepingEnded(Duration.ofMinutes(10));
    envelopes.forEach(whole::apply);
    var first = FleetState.keepingEnded(Duration.ofMinutes(10));
    envelopes.subList(0, envelopes.size() / 2).forEach(first::apply);
    var restored = FleetState.restore(first.image());
    envelopes.subList(envelopes.size() / 2, envelopes.size()).forEach(restored::apply);

    assertThat(StateHash.of(restored)).isEqualTo(StateHash.of(whole));
    assertThat(whole.image().staleKeys()).hasSize(Regions.KEPT_STALE_KEYS_PER_NODE);
  }

  @Test
  void keepsTheNewestEpochsOfAProducerAndDoesNotFoldAnOlderOne() {
    var log = new Log();
    for (int epoch = 1; epoch <= FleetState.KEPT_EPOCHS + 5; epoch++) {
      log.append("n1", epoch, 1, new OpaqueEvent("n1", "", "io.example.noise", 1, "{}"));
    }
    log.append("n1", 2, 2, new OpaqueEvent("n1", "", "io.example.noise", 1, "{}"));

    FleetState state = forgetting(log);

    assertThat(state.sequences()).hasSize(FleetState.KEPT_EPOCHS)
        .allSatisfy(s -> assertThat(s.epoch()).isGreaterThan(5));
    assertThat(state.hasSeen("n1", 2, 2)).as("nothing is decided on an event the fold did not fold").isTrue();
    assertThat(state.violations()).singleElement().extracting(Violation::message).asString()
        .contains("n1 epoch 2, older than the " + FleetState.KEPT_EPOCHS + " newest epochs");
  }

  @Test
  void doesNotFoldAnEpochForgottenRightAfterTheFoldLastLookedItUp() {
    var log = new Log();
    for (int epoch = 1; epoch <= FleetState.KEPT_EPOCHS; epoch++) {
      log.append("n1", epoch, 1, new OpaqueEvent("n1", "", "io.example.noise", 1, "{}"));
    }
    log.append("n1", 1, 2, new OpaqueEvent("n1", "", "io.example.noise", 1, "{}")); // epoch 1 looked up last...
    log.append("n1", FleetState.KEPT_EPOCHS + 1, 1, new OpaqueEvent("n1", "", "io.example.noise", 1, "{}")); // ...and forgotten
    log.append("n1", 1, 3, new OpaqueEvent("n1", "", "io.example.noise", 1, "{}"));

    FleetState state = forgetting(log);

    assertThat(state.sequences()).hasSize(FleetState.KEPT_EPOCHS).noneSatisfy(s -> assertThat(s.epoch()).isEqualTo(1));
    assertThat(state.violations()).singleElement().extracting(Violation::message).asString()
        .contains("n1 epoch 1, older than the " + FleetState.KEPT_EPOCHS + " newest epochs");
  }
}
