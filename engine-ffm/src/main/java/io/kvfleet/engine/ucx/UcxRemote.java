package io.kvfleet.engine.ucx;

import io.kvfleet.engine.internal.Calls;
import io.kvfleet.engine.spi.BackendRemote;
import io.kvfleet.engine.ucx.internal.Ucp;

/** An unpacked {@code ucp_rkey_h}; destroyed under the initiator lock when closed. */
final class UcxRemote implements BackendRemote {
  private final UcxPeer peer;
  private final long rkey;
  private boolean closed;

  UcxRemote(UcxPeer peer, long rkey) {
    this.peer = peer;
    this.rkey = rkey;
  }

  long rkey() {
    return rkey;
  }

  @Override
  public void close() {
    peer.locked(() -> {
      if (!closed) {
        closed = true;
        try {
          Ucp.RKEY_DESTROY.invokeExact(rkey);
        } catch (Throwable t) {
          throw Calls.rethrow(t);
        }
      }
    });
  }
}
