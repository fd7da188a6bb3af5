package io.kvfleet.control.coordinator;

import static io.kvfleet.control.coordinator.TransferDeciderTest.range;
import static io.kvfleet.control.coordinator.TransferDeciderTest.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.Topics;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.trust.FleetKey;
import io.kvfleet.events.trust.KeyBinding;
import io.kvfleet.events.trust.Role;
import io.kvfleet.events.trust.TrustFile;
import io.kvfleet.events.trust.Verifier;
import java.util.Set;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.TransferStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Red team (att): docs/SECURITY.md says "the Kafka key and partition are not signed (a signed record copied
 * into another partition is still the same event, and a copy under the same producer, epoch and sequence is a
 * redelivery)". It is not the same event for the coordinator: a Kafka writer with no key copies a router's
 * genuine signed {@code transfer.requested} (the same bytes, so the Verifier trusts it) into another partition of
 * {@code kvfleet.transfers}. Whichever copy the coordinator folds first is "the" request (the other is a
 * redelivery, Coordinator.fold returns before deciding on it); when the copy wins, the owner of the wrong
 * partition rejects it MISROUTED (Deciding.read) and the coordinator's own signed rejection ends the router's
 * real transfer. Mirrors Coordinator.fold: verify (passes), hasSeen, apply, deciding.read.
 *
 * <p>Fixed (h15fix): in a fleet that verifies, Coordinator.fold first asks {@link Ownership#misplaced} of every
 * record; a transfer record in a partition its key does not map to (here: keyless) is dead-lettered
 * {@code EVENT_MISPLACED}, never folded, never answered, its sequence not counted. The mirror below does the same,
 * so the router's own record is then read as the request, not as a redelivery.
 */
class CopiedRequestAttackTest {
  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
  private static final int PARTITIONS = 3;
  private final Deciding deciding = new Deciding("coordinator-t", Verifier.against(TrustFile.of(new KeyBinding(
      "router-0", FleetKey.generate("router-0").publicKey(), Role.ROUTER, Set.of("router-0"), Set.of()))));
  private final FleetState state = new FleetState();
  private final Ownership whole = Ownership.whole(PARTITIONS);

  @Test
  void aKeylessCopyOfASignedRequestIntoAnotherPartitionDoesNotEndTheRealTransfer() {
    var genuine = request("t-real", 1, 1, range(0, 0, 4096));
    var routerRecord = new Envelope("e-router-1", "router-0", 1, 7, NOW.minusSeconds(1), "", genuine);
    int right = Ownership.partitionOf("prefill-0", PARTITIONS);
    int wrong = (right + 1) % PARTITIONS;

    // The copy (same envelope: same producer, epoch, sequence, signature) is read first, from the wrong partition.
    List<Decision.Action> onCopy = fold(routerRecord, null, wrong);
    // Fixed: the copy is not folded, so the router's own record, in the right partition, is no redelivery.
    assertThat(state.hasSeen("router-0", 1, 7)).as("the copy's sequence counted").isFalse();

    for (Decision.Action action : onCopy) {
      if (action instanceof Decision.Reject r) {
        fold(new Envelope("e-coord-1", "coordinator-t", 1, 1, NOW, "", r.event()), "prefill-0", r.partition());
      }
    }
    fold(routerRecord, "prefill-0", right);
    assertThat(state.hasSeen("router-0", 1, 7)).as("the router's own record, folded").isTrue();
    assertThat(state.transfer("t-real")).as("the router's real transfer").isPresent();
    assertThat(state.transfer("t-real").orElseThrow().status()).as("the router's real transfer")
        .isNotEqualTo(TransferStatus.REJECTED);
    assertThat(onCopy).as("what the coordinator does on the keyless copy").noneMatch(a ->
        a instanceof Decision.Reject r && r.event() instanceof TransferRejected);
  }

  private List<Decision.Action> fold(Envelope envelope, String key, int partition) {
    if (whole.misplaced(Topics.TRANSFERS, partition, key, new Decoded.Event(envelope, new byte[0])).isPresent()) {
      return List.of(); // dead-lettered EVENT_MISPLACED by Coordinator.fold
    }
    boolean redelivered = state.hasSeen(envelope.producer(), envelope.epoch(), envelope.sequence());
    state.apply(envelope);
    if (redelivered) {
      return List.of();
    }
    FleetEvent event = envelope.data();
    return deciding.read(state, event, partition, true, whole, NOW);
  }
}
