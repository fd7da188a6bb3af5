package io.kvfleet.control.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSkipped;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.RegistrationFailed;
import java.util.List;
import org.junit.jupiter.api.Test;

class RegistrationPolicyTest {
  private static final Component STATE = new Component("state_data", RegionKind.STATE, MemoryType.VRAM, 1,
      List.of(0x1000L, 0L, 0x3000L), List.of(4096L, 0L, 4096L), List.of(512L, 512L, 512L));

  @Test
  void componentEntriesBecomeRegionsWithTheirIndexAndItemLength() {
    List<RegionSpec> regions = STATE.regions();
    assertThat(regions).extracting(RegionSpec::regionId).containsExactly("state_data-0", "state_data-1", "state_data-2");
    assertThat(regions.get(2).index()).isEqualTo(2);
    assertThat(regions.get(2).itemSize()).isEqualTo(512);
    assertThat(regions.get(2).device()).isEqualTo(1);
    assertThat(regions.get(1).length()).as("a null entry is kept, to be recorded as skipped").isZero();
  }

  @Test
  void rejectsListsThatAreNotParallel() {
    assertThatThrownBy(() -> new Component("kv_data", RegionKind.KV, MemoryType.DRAM, -1,
        List.of(1L, 2L), List.of(4096L), List.of()))
        .hasMessageContaining("2 addresses but 1 lengths");
  }

  @Test
  void decidesNothingWhenEveryEntryIsRegisteredOrSkipped() {
    var regions = STATE.regions();
    List<FleetEvent> outcomes = List.of(registered(regions.get(0)), skipped(regions.get(1)), registered(regions.get(2)));
    assertThat(RegistrationPolicy.FAIL_NODE.decide("prefill-0", 3, STATE, outcomes)).isEmpty();
  }

  @Test
  void recordsTheFallbackDecisionWithTheReasonsOfEveryBackend() {
    var regions = STATE.regions();
    List<FleetEvent> outcomes = List.of(failed(regions.get(0), "ucx", "NO_MEMORY_DOMAIN"),
        failed(regions.get(0), "cuda", "DEVICE_UNAVAILABLE"), skipped(regions.get(1)),
        failed(regions.get(2), "ucx", "NO_MEMORY_DOMAIN"));
    var decision = RegistrationPolicy.FALLBACK_STAGED.decide("prefill-0", 3, STATE, outcomes).orElseThrow();
    assertThat(decision.component()).isEqualTo("state_data");
    assertThat(decision.policy()).isEqualTo("FALLBACK_STAGED");
    assertThat(decision.outcome()).contains("2 of 3", "ucx: NO_MEMORY_DOMAIN", "cuda: DEVICE_UNAVAILABLE", "keeps serving");
    assertThat(RegistrationPolicy.FALLBACK_STAGED.stopsNode()).isFalse();
  }

  /** Host entries are never staged: the decision promised a 'staged' outcome that never came (a new user's run). */
  @Test
  void fallbackStagedSaysHostEntriesAreNotStaged() {
    var kv = new Component("kv2", RegionKind.KV, MemoryType.DRAM, -1, List.of(0x1000L), List.of(4096L), List.of(512L));
    var decision = RegistrationPolicy.FALLBACK_STAGED.decide("prefill-0", 3, kv,
        List.of(failed(kv.regions().get(0), "ucx", "INVALID_ADDRESS"))).orElseThrow();
    assertThat(decision.outcome()).contains("DRAM entries are not staged").doesNotContain("'staged' outcome");
  }

  @Test
  void failNodeStopsTheNodeAndSaysSo() {
    var regions = STATE.regions();
    var decision = RegistrationPolicy.FAIL_NODE.decide("prefill-0", 3, STATE,
        List.of(failed(regions.get(0), "ucx", "NO_MEMORY_DOMAIN"))).orElseThrow();
    assertThat(decision.outcome()).endsWith("the node stops");
    assertThat(RegistrationPolicy.FAIL_NODE.stopsNode()).isTrue();
  }

  private static RegionRegistered registered(RegionSpec region) {
    return new RegionRegistered("prefill-0", 3, region, "cuda", "key");
  }

  private static RegionSkipped skipped(RegionSpec region) {
    return new RegionSkipped("prefill-0", 3, region, "NULL_OR_EMPTY");
  }

  private static RegistrationFailed failed(RegionSpec region, String backend, String reason) {
    var capability = new BackendCapability(backend, true, "", List.of(MemoryType.DRAM), List.of("tcp"), "");
    return new RegistrationFailed("prefill-0", 3, region, backend, reason, "refused", 0, "", capability, "fix it");
  }
}
