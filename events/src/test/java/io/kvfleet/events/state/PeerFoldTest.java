package io.kvfleet.events.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.Samples;
import java.util.List;
import org.junit.jupiter.api.Test;

class PeerFoldTest {

  @Test
  void aJoinedPeerIsAliveAtItsEpochWithWhatItAnnounced() {
    FleetState state = new Log().append(joined("n1", 1)).fold();

    assertThat(state.isAlive("n1", 1)).isTrue();
    PeerView peer = state.peer("n1").orElseThrow();
    assertThat(peer.host()).isEqualTo("host-n1");
    assertThat(peer.transportAddress()).isEqualTo("ucx-n1-1");
    assertThat(peer.capabilities()).containsExactly(Samples.ucx());
    assertThat(peer.joinedAt()).isEqualTo(Samples.T0);
    assertThat(state.violations()).isEmpty();
  }

  @Test
  void aHeartbeatRenewsTheLeaseFromTheEnvelopeTime() {
    FleetState state = new Log().append(joined("n1", 1), new PeerHeartbeat("n1", 1, 5_000)).fold();

    PeerView peer = state.peer("n1").orElseThrow();
    assertThat(peer.lastHeartbeat()).isEqualTo(Samples.T0.plusSeconds(1));
    assertThat(peer.leaseExpiresAt()).isEqualTo(Samples.T0.plusSeconds(6));
  }

  @Test
  void aRejoinAtAHigherEpochMakesTheOldEpochStale() {
    FleetState state = new Log().append(joined("n1", 1), joined("n1", 2)).fold();

    assertThat(state.isAlive("n1", 1)).isFalse();
    assertThat(state.isAlive("n1", 2)).isTrue();
    assertThat(state.isStaleEpoch("n1", 1)).isTrue();
    assertThat(state.isStaleEpoch("n1", 2)).isFalse();
  }

  @Test
  void rejectsAJoinAtAnEpochNotAboveTheCurrentOne() {
    FleetState state = new Log().append(joined("n1", 2), joined("n1", 2), joined("n1", 1)).fold();

    assertThat(state.peer("n1").orElseThrow().joinedAt()).isEqualTo(Samples.T0);
    assertThat(state.violations())
        .extracting(Violation::message)
        .containsExactly(
            "node n1 joined at epoch 2, not above its current epoch 2; the join is ignored",
            "node n1 joined at epoch 1, not above its current epoch 2; the join is ignored");
    assertThat(state.violations().getFirst().type()).isEqualTo("io.kvfleet.peer.joined");
    assertThat(state.violations().getFirst().eventId()).isEqualTo("e-1");
  }

  @Test
  void aLostPeerStaysDownDespiteLateHeartbeatsOfThatEpoch() {
    FleetState state =
        new Log()
            .append(joined("n1", 1), new PeerLost("n1", 1, ReasonCodes.LEASE_EXPIRED, 0))
            .append(new PeerHeartbeat("n1", 1, 5_000))
            .fold();

    assertThat(state.peer("n1").orElseThrow().status()).isEqualTo(PeerStatus.LOST);
    assertThat(state.isAlive("n1", 1)).isFalse();
    assertThat(state.peer("n1").orElseThrow().leaseMillis()).isZero();
  }

  @Test
  void aPeerThatLeftIsNotAlive() {
    FleetState state = new Log().append(joined("n1", 1), new PeerLeft("n1", 1, ReasonCodes.SHUTDOWN)).fold();

    assertThat(state.peer("n1").orElseThrow().status()).isEqualTo(PeerStatus.LEFT);
    assertThat(state.isAlive("n1", 1)).isFalse();
  }

  @Test
  void ignoresTheLossOfAnOlderIncarnation() {
    FleetState state =
        new Log().append(joined("n1", 1), joined("n1", 2), new PeerLost("n1", 1, "LEASE_EXPIRED", 0)).fold();

    assertThat(state.isAlive("n1", 2)).isTrue();
    assertThat(state.violations()).isEmpty();
  }

  @Test
  void recordsAHeartbeatOfANodeThatNeverJoined() {
    FleetState state = new Log().append(new PeerHeartbeat("ghost", 1, 5_000)).fold();

    assertThat(state.peer("ghost")).isEmpty();
    assertThat(state.violations())
        .extracting(Violation::message)
        .containsExactly("heartbeat of node ghost at epoch 1, which never joined");
  }

  @Test
  void recordsALossAtAnEpochTheNodeNeverJoinedAt() {
    FleetState state = new Log().append(joined("n1", 1), new PeerLost("n1", 2, "LEASE_EXPIRED", 0)).fold();

    assertThat(state.isAlive("n1", 1)).isTrue();
    assertThat(state.violations())
        .extracting(Violation::message)
        .containsExactly("loss of node n1 at epoch 2 before it joined at that epoch (current 1)");
  }

  static PeerJoined joined(String nodeId, long epoch) {
    return new PeerJoined(nodeId, epoch, "host-" + nodeId, "ucx-" + nodeId + "-" + epoch, List.of(Samples.ucx()));
  }
}
