package io.kvfleet.events.state;

/** Where a peer's current incarnation stands. */
public enum PeerStatus {
  /** Joined and not declared lost or gone. */
  ALIVE,
  /** The coordinator declared it dead after a missed lease. */
  LOST,
  /** It shut down cleanly. */
  LEFT
}
