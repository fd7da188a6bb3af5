package io.kvfleet.events;

/** The direction of a transfer, seen from the source node that runs it. */
public enum TransferOp {
  /** Source node writes its local ranges into the destination's ranges. */
  WRITE,
  /** Source node reads the destination's ranges into its local ranges. */
  READ
}
