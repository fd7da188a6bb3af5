package io.kvfleet.engine;

import io.kvfleet.engine.spi.BackendRemote;

/** A peer's region imported through one {@link Peer}; transfers name it as their remote side. */
public final class RemoteRegion implements AutoCloseable {
  private final Peer peer;
  private final RemoteKey key;
  final BackendRemote remote;
  private volatile boolean open = true;

  RemoteRegion(Peer peer, RemoteKey key, BackendRemote remote) {
    this.peer = peer;
    this.key = key;
    this.remote = remote;
  }

  public RemoteKey key() {
    return key;
  }

  /** The region's first byte in the peer's address space. */
  public long address() {
    return key.address();
  }

  public long length() {
    return key.length();
  }

  public boolean isOpen() {
    return open;
  }

  /**
   * Whether the peer refused the key when it was attached (say, no confirmation within the bound):
   * batches through it fail, and a later attach asks the peer again.
   */
  public boolean refused() {
    return remote.refused();
  }

  Peer peer() {
    return peer;
  }

  /** Releases the imported key; idempotent. */
  @Override
  public void close() {
    peer.detach(this);
  }

  /** Called by the peer. */
  synchronized void release() {
    if (open) {
      open = false;
      remote.close();
    }
  }

  @Override
  public String toString() {
    return "RemoteRegion[" + key + (open ? "" : ", closed") + "]";
  }
}
