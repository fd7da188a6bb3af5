package io.kvfleet.engine.ucx;

import io.kvfleet.engine.internal.Calls;
import io.kvfleet.engine.spi.BackendRemote;
import io.kvfleet.engine.ucx.internal.Ucp;

/**
 * A peer's region: an unpacked {@code ucp_rkey_h} once the peer's worker confirmed it registered
 * the key's range ({@link RegionQuery}), or why it did not (then no rkey was unpacked and every
 * batch through it fails {@code NO_GRANT} before a byte moves). Destroyed under the initiator lock.
 */
final class UcxRemote implements BackendRemote {
  private final UcxPeer peer;
  private final long rkey;
  private final String refusal;
  private boolean closed;

  private UcxRemote(UcxPeer peer, long rkey, String refusal) {
    this.peer = peer;
    this.rkey = rkey;
    this.refusal = refusal;
  }

  static UcxRemote confirmed(UcxPeer peer, long rkey) {
    return new UcxRemote(peer, rkey, null);
  }

  static UcxRemote refused(UcxPeer peer, String why) {
    return new UcxRemote(peer, 0, why);
  }

  long rkey() {
    return rkey;
  }

  /** Why the peer did not confirm the region, or null when it did. */
  @Override
  public boolean refused() {
    return refusal != null;
  }

  String refusal() {
    return refusal;
  }

  @Override
  public void close() {
    peer.locked(() -> {
      if (!closed) {
        closed = true;
        if (refusal != null) {
          return;
        }
        try {
          Ucp.RKEY_DESTROY.invokeExact(rkey);
        } catch (Throwable t) {
          throw Calls.rethrow(t);
        }
      }
    });
  }
}
