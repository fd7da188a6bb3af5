package io.kvfleet.events.state;

import io.kvfleet.events.ModelLayoutDeclared;
import io.kvfleet.events.RegionSkipped;
import io.kvfleet.events.RegistrationDecision;
import io.kvfleet.events.RegistrationFailed;
import java.util.List;
import java.util.SortedMap;

/**
 * Everything a {@link FleetState} holds, as immutable parts: what its hash covers and what a
 * snapshot stores.
 */
record StateImage(
    long applied,
    SortedMap<String, PeerView> peers,
    SortedMap<RegionKey, RegionView> regions,
    Recent.Kept<StaleRegistration> staleRegistrations,
    List<RegionKey> staleKeys,
    Recent.Kept<RegistrationFailed> failures,
    SortedMap<String, Long> failuresByReason,
    SortedMap<String, TransferView> transfers,
    long keepEndedMillis,
    long forgottenTransfers,
    long lateOutcomes,
    SortedMap<Sequences.Producer, Sequences.Seen> sequences,
    Recent.Kept<RegionSkipped> skipped,
    Recent.Kept<RegistrationDecision> decisions,
    SortedMap<String, Long> opaqueByType,
    Recent.Kept<Violation> violations,
    SortedMap<String, ModelLayoutDeclared> layouts) {

  /** Hex SHA-256 of the canonical form: the definition of {@link FleetState#hash()}. */
  String hash() {
    return Canonical.sha256(
        List.of(
            applied, peers, List.of(regions, staleRegistrations, staleKeys, failures, failuresByReason), transfers,
            List.of(keepEndedMillis, forgottenTransfers, lateOutcomes), sequences, skipped, decisions, opaqueByType,
            violations, layouts));
  }
}
