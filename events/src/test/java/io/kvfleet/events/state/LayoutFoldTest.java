package io.kvfleet.events.state;

import io.kvfleet.events.snapshot.StateHash;
import static io.kvfleet.events.state.PeerFoldTest.joined;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.PartOutcome;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.Samples;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import java.util.List;
import org.junit.jupiter.api.Test;

class LayoutFoldTest {

  @Test
  void keepsTheLayoutANodeDeclaredAtItsCurrentEpoch() {
    FleetState state = new Log().append(joined("n1", 1), Samples.layout("n1", 1)).fold();

    assertThat(state.layout("n1")).contains(Samples.layout("n1", 1));
    assertThat(state.violations()).isEmpty();
  }

  @Test
  void forgetsTheLayoutAtTheNodesNextEpoch() {
    FleetState state = new Log().append(joined("n1", 1), Samples.layout("n1", 1), joined("n1", 2)).fold();

    assertThat(state.layout("n1")).isEmpty();
  }

  @Test
  void forgetsTheLayoutOfALostNode() {
    FleetState state = new Log()
        .append(joined("n1", 1), Samples.layout("n1", 1), new PeerLost("n1", 1, ReasonCodes.LEASE_EXPIRED, 0)).fold();

    assertThat(state.layout("n1")).isEmpty();
  }

  @Test
  void refusesALayoutNamingAnotherEpochAsAViolation() {
    FleetState state = new Log().append(joined("n1", 2), Samples.layout("n1", 1)).fold();

    assertThat(state.layout("n1")).isEmpty();
    assertThat(state.violations()).extracting(Violation::message)
        .containsExactly("layout of n1 epoch 1 declared, but its current epoch is 2; not kept");
  }

  @Test
  void keepsTheLayoutInASnapshotAndItsHash() {
    FleetState state = new Log().append(joined("n1", 1), Samples.layout("n1", 1)).fold();
    FleetState without = new Log().append(joined("n1", 1)).fold();

    assertThat(FleetState.restore(state.image()).layout("n1")).contains(Samples.layout("n1", 1));
    assertThat(StateHash.of(state)).isNotEqualTo(StateHash.of(without));
  }

  @Test
  void completesARequestTransferWhosePartsAreTheRequestedComponents() {
    FleetState state = new Log().append(Samples.requestTransfer("t1", "p", 1, "d", 1),
        new TransferDispatched("t1", "p", "c0"), completion(List.of(
            new PartOutcome("kv", 2, 100, ""), new PartOutcome("conv", 1, 10, ""), new PartOutcome("aux", 1, 1, "")),
            111)).fold();

    assertThat(state.transfer("t1").orElseThrow().status()).isEqualTo(TransferStatus.COMPLETED);
    assertThat(state.violations()).isEmpty();
  }

  @Test
  void namesACompletionMissingAPartOfTheRequestAsAViolation() {
    FleetState state = new Log().append(Samples.requestTransfer("t1", "p", 1, "d", 1),
        new TransferDispatched("t1", "p", "c0"),
        completion(List.of(new PartOutcome("kv", 2, 100, ""), new PartOutcome("aux", 1, 1, "")), 101)).fold();

    assertThat(state.violations()).extracting(Violation::message)
        .containsExactly("request transfer t1 completed with parts [kv, aux] but requested [kv, conv, aux]");
  }

  @Test
  void namesACompletionWhoseBytesAreNotItsPartsAsAViolation() {
    FleetState state = new Log().append(Samples.requestTransfer("t1", "p", 1, "d", 1),
        new TransferDispatched("t1", "p", "c0"), completion(List.of(
            new PartOutcome("kv", 2, 100, ""), new PartOutcome("conv", 1, 10, ""), new PartOutcome("aux", 1, 1, "")),
            999)).fold();

    assertThat(state.violations()).extracting(Violation::message)
        .containsExactly("request transfer t1 completed with 999 bytes but its parts add up to 111");
  }

  private static TransferCompleted completion(List<PartOutcome> parts, long bytes) {
    return new TransferCompleted("t1", "p", bytes, 1, "host/memcpy", "", parts);
  }
}
