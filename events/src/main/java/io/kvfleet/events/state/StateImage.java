package io.kvfleet.events.state;

import io.kvfleet.events.ModelLayoutDeclared;
import io.kvfleet.events.RegionSkipped;
import io.kvfleet.events.RegistrationDecision;
import io.kvfleet.events.RegistrationFailed;
import java.util.List;
import java.util.SortedMap;

/**
 * Everything a {@link FleetState} holds, as immutable parts: what its hash covers and what a
 * snapshot stores ({@code io.kvfleet.events.snapshot}, the only user). Public so that package can
 * read a state and rebuild one; a state rebuilt from an image is trusted only once its hash matches.
 */
public record StateImage(
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
    SortedMap<String, ModelLayoutDeclared> layouts) {}
