package io.kvfleet.events.snapshot;

/** A snapshot that cannot be trusted: corrupt, truncated, of another format or fold, or not matching its hash. */
public final class InvalidSnapshotException extends RuntimeException {
  /** A snapshot refused for {@code reason}. */
  public InvalidSnapshotException(String reason) {
    super(reason, null, false, false);
  }
}
