package io.kvfleet.events.state;

/** Where a region of a node stands. */
public enum RegionStatus {
  /** At least one backend registered it at the node's current epoch. */
  LIVE,
  /** Every backend that tried refused it. */
  FAILED,
  /** Every backend that registered it released it. */
  DEREGISTERED,
  /**
   * It belongs to an incarnation of its node that was replaced, lost or left; its remote keys are
   * void.
   */
  STALE
}
