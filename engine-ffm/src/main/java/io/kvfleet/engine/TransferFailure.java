package io.kvfleet.engine;

/** Why a transfer batch did not complete. Names match the control plane's reason codes. */
public enum TransferFailure {
  /** An op's range runs outside its local or remote region; nothing was moved. */
  OUT_OF_BOUNDS,
  /** A region in the batch is deregistered, closed, or belongs to another engine or peer. */
  UNKNOWN_REGION,
  /**
   * No grant of the peer covers the remote region: the key names no grant, a grant of another
   * peer, a file that is not the peer's, or a grant its owner revoked (deregistered) or shrank.
   */
  NO_GRANT,
  /** The transport reported an error (native code and message attached). */
  TRANSPORT_ERROR,
  /** The batch did not complete before its deadline; the peer should be treated as broken. */
  DEADLINE_PASSED,
  /**
   * The caller gave the batch up because it may no longer move bytes (an agent that cannot prove
   * its lease is current); not one more poll ran, and the peer is marked broken.
   */
  LEASE_UNPROVEN,
  /**
   * The peer is gone (endpoint timeout, connection reset, process exited) or its connection is
   * closed or broken; {@link Peer#isUsable()} turns false, reconnect to go on.
   */
  PEER_LOST,
  /**
   * The peer's worker offers no transport this engine may use: e.g. it is on another host, or
   * offers only tcp, and this engine's UCX runs without tcp (the default; {@code --ucx-allow-tcp}
   * on both ends turns it on). Nothing was moved; reconnecting does not help.
   */
  NO_COMMON_TRANSPORT
}
