package io.kvfleet.events.state;

/**
 * A summary of fleet state, for dashboards and checks.
 *
 * @param applied envelopes folded, duplicates included
 * @param missingSequences sequence numbers missing across all producers
 * @param transfers transfers the fold holds, ended ones it has not forgotten included
 * @param forgottenTransfers ended transfers the fold has forgotten (always 0 in a replay, which keeps all)
 * @param lateOutcomes second ends of transfers that raced the first between the source's agent and
 *     a coordinator (an outcome reported after a time-out, say); the first end is kept
 * @param duplicateSequences envelopes skipped as already seen
 */
public record Counts(
    long applied,
    int peers,
    int alivePeers,
    int liveRegions,
    int staleRegions,
    long staleRegistrations,
    long registrationFailures,
    long skippedRegions,
    long decisions,
    int transfers,
    long forgottenTransfers,
    int inFlight,
    int completed,
    int failed,
    int rejected,
    int timedOut,
    long lateOutcomes,
    long opaque,
    long missingSequences,
    long duplicateSequences,
    long violations) {}
