package io.kvfleet.events.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.EventType;
import io.kvfleet.events.OpaqueEvent;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.Samples;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.Log;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StateHashTest {

  /** A log touching every part of the state. */
  private static List<Envelope> fleet() {
    var log = new Log().append("p0", 1, joined("p0", 1)).append("d0", 1, joined("d0", 1));
    for (EventType type : EventType.values()) {
      log.append("prefill-0", 3, Samples.of(type));
    }
    return log.append("p0", 1, registered("p0", 1, "kv-0", "ucx"))
        .append("d0", 1, new PeerHeartbeat("d0", 1, 3_000))
        .append("router", 1, Samples.request("t9", "p0", 1, "d0", 1))
        .append("router", 1, new OpaqueEvent("p0", "", "io.kvfleet.peer.migrated", 1, "{}"))
        .append("coordinator", 1, new TransferDispatched("t9", "p0", "c0"))
        .redeliver(3)
        .envelopes();
  }

  @Test
  void pinsTheHashOfAKnownLogSoItStaysTheSameAcrossRunsAndBuilds() {
    // Changing what state keeps, or how it is serialized, changes this value: update it on purpose.
    assertThat(StateHash.of(FleetState.fold(fleet())))
        .isEqualTo("79332e53005b6701c1512f1fe6ea3f46700c27476a97e2f4c6f7a6a36f98226a");
  }

  @Test
  void givesTheSameHashForTheSameLogInTwoIndependentFolds() {
    FleetState first = FleetState.fold(fleet());
    FleetState second = new FleetState();
    fleet().forEach(second::apply);

    assertThat(StateHash.of(second)).isEqualTo(StateHash.of(first)).hasSize(64).matches("[0-9a-f]{64}");
  }

  @Test
  void doesNotDependOnHowIndependentNodesInterleave() {
    List<Envelope> nodeA = new ArrayList<>();
    List<Envelope> nodeB = new ArrayList<>();
    for (Envelope e : new Log().append("a", 1, joined("a", 1)).append("b", 1, joined("b", 1))
        .append("a", 1, registered("a", 1, "kv-0", "ucx")).append("b", 1, registered("b", 1, "kv-0", "ucx"))
        .envelopes()) {
      (e.producer().equals("a") ? nodeA : nodeB).add(e);
    }
    List<Envelope> aThenB = new ArrayList<>(nodeA);
    aThenB.addAll(nodeB);
    List<Envelope> bThenA = new ArrayList<>(nodeB);
    bThenA.addAll(nodeA);

    assertThat(StateHash.of(FleetState.fold(aThenB))).isEqualTo(StateHash.of(FleetState.fold(bThenA)));
  }

  @Test
  void changesWhenTheStateChanges() {
    List<Envelope> log = fleet();
    var more = new ArrayList<>(log);
    more.add(new Log().append("d0", 1, 99, new PeerHeartbeat("d0", 1, 4_000)).last());

    String hash = StateHash.of(FleetState.fold(log));

    assertThat(StateHash.of(FleetState.fold(more))).isNotEqualTo(hash);
    assertThat(StateHash.of(FleetState.fold(log.subList(0, log.size() - 1)))).isNotEqualTo(hash);
    assertThat(StateHash.of(new FleetState())).isNotEqualTo(hash);
  }

  /** As {@code PeerFoldTest.joined}: the pinned hash depends on these exact events. */
  private static PeerJoined joined(String nodeId, long epoch) {
    return new PeerJoined(nodeId, epoch, "host-" + nodeId, "ucx-" + nodeId + "-" + epoch, List.of(Samples.ucx()));
  }

  /** As {@code RegionFoldTest.registered}. */
  private static RegionRegistered registered(String nodeId, long epoch, String regionId, String backend) {
    return new RegionRegistered(nodeId, epoch, Samples.kv(regionId), backend, "key-" + backend + "-" + epoch);
  }
}
