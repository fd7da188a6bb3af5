package io.kvfleet.events.replay;

import static io.kvfleet.events.replay.Script.joined;
import static io.kvfleet.events.replay.Script.registered;
import static io.kvfleet.events.replay.Script.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.state.TransferStatus;
import io.kvfleet.events.trust.FleetKey;
import io.kvfleet.events.trust.KeyBinding;
import io.kvfleet.events.trust.Role;
import io.kvfleet.events.trust.TrustFile;
import io.kvfleet.events.trust.Verifier;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Rows 3, 4 and 5 of issue 15 as a replay sees them: forged records are listed, and not folded. */
class VerifyingReplayTest {
  private final FleetKey p0 = FleetKey.generate("p0");
  private final FleetKey d0 = FleetKey.generate("d0");
  private final FleetKey router = FleetKey.generate("router");
  private final FleetKey coordinator = FleetKey.generate("coordinator");
  private final TrustFile trust = TrustFile.of(node(p0), node(d0),
      new KeyBinding("router", router.publicKey(), Role.ROUTER, Set.of("router"), Set.of()),
      new KeyBinding("coordinator", coordinator.publicKey(), Role.COORDINATOR, Set.of("coordinator"), Set.of()));

  private static KeyBinding node(FleetKey key) {
    return new KeyBinding(key.keyId(), key.publicKey(), Role.NODE, Set.of(key.keyId()), Set.of(key.keyId()));
  }

  /** A signed fleet with t1 in flight, then the forgeries of rows 3, 4 and 5, then d0's real heartbeat. */
  private Script forgedLog() {
    return new Script()
        .signed(p0, "p0", 1, joined("p0", 1)).signed(p0, "p0", 1, registered("p0", 1, "kv-0"))
        .signed(d0, "d0", 1, joined("d0", 1)).signed(d0, "d0", 1, registered("d0", 1, "kv-0"))
        .signed(router, "router", 1, request("t1", "p0", 1, "d0", 1))
        .signed(coordinator, "coordinator", 1, new TransferDispatched("t1", "p0", "coordinator"))
        // row 3: a PeerLost for healthy d0, unsigned and under any producer name
        .signed(null, "coordinator", 1, 99, new PeerLost("d0", 1, ReasonCodes.LEASE_EXPIRED, 0))
        // row 4: a heartbeat in d0's name at a future sequence number, signed by another node's key
        .signed(p0, "d0", 1, 1_000, new PeerHeartbeat("d0", 1, 3_000))
        // row 5: a completion of the in-flight t1 from d0's real key (t1 was dispatched to p0)
        .signed(d0, "d0", 1, new TransferCompleted("t1", "d0", 1024, 1, "host", "", List.of()))
        // d0's real next heartbeat, at the sequence the forgery tried to squat on
        .signed(d0, "d0", 1, 1_000, new PeerHeartbeat("d0", 1, 3_000));
  }

  @Test
  void listsEveryForgedRecordWithItsReasonAndFoldsNoneOfThem() {
    ReplayResult result = forgedLog().replay(ReplayOptions.defaults().verifying(Verifier.against(trust)));

    assertThat(result.anomalies().of(AnomalyKind.UNAUTHENTICATED)).extracting(Anomaly::message)
        .satisfiesExactly(
            m -> assertThat(m).startsWith(ReasonCodes.EVENT_UNSIGNED),
            m -> assertThat(m).startsWith(ReasonCodes.EVENT_WRONG_PRODUCER),
            m -> assertThat(m).startsWith(ReasonCodes.EVENT_WRONG_NODE));
    assertThat(result.state().isAlive("d0", 1)).isTrue();
    assertThat(result.state().transfer("t1").orElseThrow().status()).isEqualTo(TransferStatus.DISPATCHED);
    // The real heartbeat at sequence 1000 was folded, not taken for a redelivery of the forgery.
    assertThat(result.anomalies().count(AnomalyKind.DUPLICATE)).isZero();
    assertThat(result.state().hasSeen("d0", 1, 1_000)).isTrue();
  }

  /**
   * A router's genuine request, signed, copied into another transfers partition than its key hashes to:
   * the signature still checks (neither key nor partition is signed), and a verifying coordinator refuses
   * it as misplaced; a verifying replay must refuse it alike, or its hash is not the coordinator's.
   */
  @Test
  void refusesASignedRecordOutOfItsPartitionAsAVerifyingCoordinatorDoes() {
    int right = Script.partition("p0"); // the script's own partitioner, as Kafka's is the fleet's
    var log = new Script()
        .signed(p0, "p0", 1, joined("p0", 1)).signed(d0, "d0", 1, joined("d0", 1))
        .signedIn(right, router, "router", 1, request("t-good", "p0", 1, "d0", 1))
        .signedIn((right + 1) % 3, router, "router", 1, request("t-copied", "p0", 1, "d0", 1));

    ReplayResult result = log.replay(ReplayOptions.defaults().verifying(Verifier.against(trust))
        .placement(r -> r.position().partition() == Script.partition(r.key()) ? java.util.Optional.empty()
            : java.util.Optional.of("EVENT_MISPLACED-test: key " + r.key() + " in partition " + r.position().partition())));

    assertThat(result.anomalies().of(AnomalyKind.UNAUTHENTICATED)).extracting(Anomaly::message)
        .singleElement().asString().startsWith(ReasonCodes.EVENT_MISPLACED).contains("key p0 in partition");
    assertThat(result.state().transfer("t-good")).isPresent();
    assertThat(result.state().transfer("t-copied")).isEmpty();
    // Without a placement rule (or without a trust file) the copy is folded like any record.
    assertThat(log.replay(ReplayOptions.defaults().verifying(Verifier.against(trust))).state().transfer("t-copied"))
        .isPresent();
  }

  @Test
  void withoutATrustFileTheSameLogFoldsTheForgeries() {
    ReplayResult result = forgedLog().replay(ReplayOptions.defaults());

    assertThat(result.anomalies().count(AnomalyKind.UNAUTHENTICATED)).isZero();
    assertThat(result.state().isAlive("d0", 1)).isFalse();
    assertThat(result.state().transfer("t1").orElseThrow().status()).isEqualTo(TransferStatus.COMPLETED);
    assertThat(result.anomalies().count(AnomalyKind.DUPLICATE)).isEqualTo(1); // the real heartbeat, squatted on
  }
}
