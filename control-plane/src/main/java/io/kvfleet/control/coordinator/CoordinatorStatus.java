package io.kvfleet.control.coordinator;

/**
 * What a coordinator reports about itself: how much of the log it folded, whether it caught up,
 * what it could not read, the hash of its fleet state (which a replay of the same log matches) and
 * how many transfers it holds.
 *
 * @param poison records it could not fold (tombstones, malformed, unreadable types, wrong topic), copied
 *     to the dead-letter topic by the owner of their partition
 * @param heldTransfers transfers in its state: in flight, and ended within its keep-ended window
 * @param forgottenTransfers ended transfers it has forgotten (the log still has them)
 * @param lateOutcomes transfer ends that came after another producer had ended the transfer
 * @param missingEvents events it needed that the log had deleted before it read them ({@link LogGap})
 */
public record CoordinatorStatus(
    String coordinatorId,
    boolean caughtUp,
    long applied,
    long malformed,
    long poison,
    long opaque,
    long violations,
    String stateHash,
    java.util.List<Integer> ownedTransferPartitions,
    long heldTransfers,
    long inFlightTransfers,
    long forgottenTransfers,
    long lateOutcomes,
    long missingEvents) {

  /** The EventBus address a coordinator answers status requests on. */
  public static String address(String coordinatorId) {
    return "kvfleet.coordinator." + coordinatorId + ".status";
  }
}
