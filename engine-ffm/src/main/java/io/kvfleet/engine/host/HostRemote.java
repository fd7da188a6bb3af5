package io.kvfleet.engine.host;

import io.kvfleet.engine.spi.BackendRemote;

/**
 * A peer's region as the host backend sees it: its grant mapped here, or why no grant covers it
 * (the transfer then fails {@code NO_GRANT} before a byte moves). Used under its peer's lock.
 */
final class HostRemote implements BackendRemote {
  private final HostPeer peer;
  /** The region's first byte in its owner's address space, as the remote key says. */
  final long keyAddress;
  private GrantMapping mapping;
  private String refusal;

  private HostRemote(HostPeer peer, long keyAddress, GrantMapping mapping, String refusal) {
    this.peer = peer;
    this.keyAddress = keyAddress;
    this.mapping = mapping;
    this.refusal = refusal;
  }

  static HostRemote granted(HostPeer peer, long keyAddress, GrantMapping mapping) {
    return new HostRemote(peer, keyAddress, mapping, null);
  }

  static HostRemote refused(HostPeer peer, long keyAddress, String why) {
    return new HostRemote(peer, keyAddress, null, why);
  }

  /** Why no grant covers it any more (checked again on every batch), or null while one does. */
  String refusal() {
    if (refusal == null) {
      String revoked = mapping.revoked();
      if (revoked != null) {
        drop(revoked);
      }
    }
    return refusal;
  }

  /** The granted bytes; only after {@link #refusal()} said null. */
  GrantMapping mapping() {
    return mapping;
  }

  /** Unmaps it: the grant is gone or it broke under a copy. */
  void drop(String why) {
    refusal = why;
    if (mapping != null) {
      mapping.close();
      mapping = null;
    }
  }

  @Override
  public void close() {
    peer.release(this);
  }
}
