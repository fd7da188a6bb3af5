package io.kvfleet.events.state;

import static io.kvfleet.events.state.PeerFoldTest.joined;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionDeregistered;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSkipped;
import io.kvfleet.events.RegistrationDecision;
import io.kvfleet.events.Samples;
import org.junit.jupiter.api.Test;

class RegionFoldTest {

  @Test
  void aRegisteredRegionIsLiveWithTheRemoteKeyOfEachBackend() {
    FleetState state =
        new Log()
            .append(joined("n1", 1), registered("n1", 1, "kv-0", "ucx"))
            .append(registered("n1", 1, "kv-0", "host"))
            .fold();

    RegionView region = state.region("n1", "kv-0").orElseThrow();
    assertThat(region.status()).isEqualTo(RegionStatus.LIVE);
    assertThat(region.spec()).isEqualTo(Samples.kv("kv-0"));
    assertThat(region.remoteKeys()).containsExactly(entry("host", "key-host-1"), entry("ucx", "key-ucx-1"));
    assertThat(state.isStale("n1", "kv-0")).isFalse();
  }

  @Test
  void keepsARegistrationAtAnOlderEpochAsStaleNotLive() {
    FleetState state = new Log().append(joined("n1", 2), registered("n1", 1, "kv-0", "ucx")).fold();

    assertThat(state.region("n1", "kv-0")).isEmpty();
    assertThat(state.isStale("n1", "kv-0")).isTrue();
    assertThat(state.staleRegistrations())
        .containsExactly(new StaleRegistration("e-1", "n1", "kv-0", "ucx", 1, 2));
  }

  @Test
  void keepsARegistrationOfANodeThatNeverJoinedAsStale() {
    FleetState state = new Log().append(registered("n1", 1, "kv-0", "ucx")).fold();

    assertThat(state.region("n1", "kv-0")).isEmpty();
    assertThat(state.staleRegistrations()).extracting(StaleRegistration::currentEpoch).containsExactly(0L);
  }

  @Test
  void aRejoinMakesTheRegionsOfTheOldIncarnationStale() {
    FleetState state =
        new Log().append(joined("n1", 1), registered("n1", 1, "kv-0", "ucx"), joined("n1", 2)).fold();

    assertThat(state.region("n1", "kv-0")).isEmpty();
    assertThat(state.isStale("n1", "kv-0")).isTrue();
    assertThat(state.regions()).extracting(RegionView::status).containsExactly(RegionStatus.STALE);
  }

  @Test
  void aLossOrADepartureMakesTheLiveRegionsOfThatIncarnationStaleAndKeepsItsFailures() {
    FleetState lost = new Log().append(joined("n1", 1), registered("n1", 1, "kv-0", "ucx"),
        Samples.stateTensorFailure("n1", 1), new PeerLost("n1", 1, ReasonCodes.LEASE_EXPIRED, 0)).fold();
    FleetState left = new Log().append(joined("n1", 1), registered("n1", 1, "kv-0", "ucx"),
        new PeerLeft("n1", 1, ReasonCodes.SHUTDOWN)).fold();

    for (FleetState state : java.util.List.of(lost, left)) {
      assertThat(state.region("n1", "kv-0")).as("no longer served").isEmpty();
      assertThat(state.isStale("n1", "kv-0")).isTrue();
      assertThat(state.counts().liveRegions()).isZero();
    }
    assertThat(lost.regions()).extracting(RegionView::status)
        .containsExactlyInAnyOrder(RegionStatus.STALE, RegionStatus.FAILED);
  }

  @Test
  void keepsARegistrationThatCameAfterItsIncarnationWasLostAsStale() {
    FleetState state = new Log().append(joined("n1", 1), new PeerLost("n1", 1, ReasonCodes.LEASE_EXPIRED, 0),
        registered("n1", 1, "kv-0", "ucx")).fold();

    assertThat(state.region("n1", "kv-0")).isEmpty();
    assertThat(state.counts().liveRegions()).isZero();
    assertThat(state.staleRegistrations()).containsExactly(new StaleRegistration("e-2", "n1", "kv-0", "ucx", 1, 1));
  }

  @Test
  void aLossOfAnOlderEpochLeavesTheCurrentIncarnationsRegionsLive() {
    FleetState state = new Log().append(joined("n1", 1), joined("n1", 2), registered("n1", 2, "kv-0", "ucx"),
        new PeerLost("n1", 1, ReasonCodes.LEASE_EXPIRED, 0)).fold();

    assertThat(state.region("n1", "kv-0")).isPresent();
  }

  @Test
  void aRegionRegisteredAgainAfterARejoinIsLiveAtTheNewEpoch() {
    FleetState state =
        new Log()
            .append(joined("n1", 1), registered("n1", 1, "kv-0", "ucx"), joined("n1", 2))
            .append(registered("n1", 2, "kv-0", "ucx"))
            .fold();

    assertThat(state.region("n1", "kv-0").orElseThrow().epoch()).isEqualTo(2);
    assertThat(state.isStale("n1", "kv-0")).isFalse();
  }

  @Test
  void keepsEachFailureWithItsReasonAndCountsThemByReason() {
    FleetState state =
        new Log()
            .append(joined("n1", 1), registered("n1", 1, "state-conv-3", "host"))
            .append(Samples.stateTensorFailure("n1", 1), Samples.stateTensorFailure("n1", 1))
            .fold();

    assertThat(state.failures()).hasSize(2);
    assertThat(state.failuresByReason()).containsExactly(entry(ReasonCodes.MEMORY_TYPE_UNSUPPORTED, 2L));
    RegionView region = state.region("n1", "state-conv-3").orElseThrow();
    assertThat(region.failedBackends()).containsExactly(entry("ucx", ReasonCodes.MEMORY_TYPE_UNSUPPORTED));
  }

  @Test
  void aRegionEveryBackendRefusedIsFailedNotLive() {
    FleetState state = new Log().append(joined("n1", 1), Samples.stateTensorFailure("n1", 1)).fold();

    assertThat(state.region("n1", "state-conv-3")).isEmpty();
    assertThat(state.regions()).extracting(RegionView::status).containsExactly(RegionStatus.FAILED);
  }

  @Test
  void aRegionReleasedByItsLastBackendIsDeregistered() {
    FleetState state =
        new Log()
            .append(joined("n1", 1), registered("n1", 1, "kv-0", "ucx"))
            .append(new RegionDeregistered("n1", 1, "kv-0", "ucx", ReasonCodes.SHUTDOWN))
            .fold();

    assertThat(state.region("n1", "kv-0")).isEmpty();
    assertThat(state.regions()).extracting(RegionView::status).containsExactly(RegionStatus.DEREGISTERED);
    assertThat(state.violations()).isEmpty();
  }

  @Test
  void recordsAReleaseByABackendThatNeverRegisteredTheRegion() {
    FleetState state =
        new Log()
            .append(joined("n1", 1), registered("n1", 1, "kv-0", "ucx"))
            .append(new RegionDeregistered("n1", 1, "kv-0", "host", ReasonCodes.SHUTDOWN))
            .fold();

    assertThat(state.region("n1", "kv-0")).isPresent();
    assertThat(state.violations())
        .extracting(Violation::message)
        .containsExactly("region kv-0 of node n1 released by host, which had not registered it at epoch 1");
  }

  @Test
  void keepsTheFirstSpecWhenABackendRegistersADifferentOne() {
    var other = new RegionRegistered("n1", 1, Samples.region("kv-0", RegionKind.KV, 1 << 21, 4096), "host", "k");

    FleetState state = new Log().append(joined("n1", 1), registered("n1", 1, "kv-0", "ucx"), other).fold();

    assertThat(state.region("n1", "kv-0").orElseThrow().spec()).isEqualTo(Samples.kv("kv-0"));
    assertThat(state.violations()).hasSize(1);
  }

  @Test
  void keepsSkippedRegionsAndDecisionsInLogOrder() {
    var skipped = new RegionSkipped("n1", 1, Samples.region("aux-0", RegionKind.AUX, 0, 0), "zero length");
    var decision = new RegistrationDecision("n1", 1, "state_data", "CONTINUE_WITHOUT", "no state transfer");

    FleetState state = new Log().append(joined("n1", 1), skipped, decision).fold();

    assertThat(state.skipped()).containsExactly(skipped);
    assertThat(state.decisions()).containsExactly(decision);
    assertThat(state.regions()).isEmpty();
  }

  static RegionRegistered registered(String nodeId, long epoch, String regionId, String backend) {
    return new RegionRegistered(nodeId, epoch, Samples.kv(regionId), backend, "key-" + backend + "-" + epoch);
  }
}
