package io.kvfleet.events.state;

/** Where a transfer stands; every requested transfer ends in exactly one terminal status. */
public enum TransferStatus {
  REQUESTED,
  DISPATCHED,
  COMPLETED,
  FAILED,
  REJECTED,
  TIMED_OUT;

  /** Whether the transfer has ended. */
  public boolean isTerminal() {
    return switch (this) {
      case REQUESTED, DISPATCHED -> false;
      case COMPLETED, FAILED, REJECTED, TIMED_OUT -> true;
    };
  }
}
