package io.kvfleet.engine;

/** Which way a transfer moves bytes, seen from the initiator. */
public enum Direction {
  /** Local registered memory to the peer's region (a put). */
  WRITE,
  /** The peer's region to local registered memory (a get). */
  READ
}
