package io.kvfleet.engine.cuda;

import io.kvfleet.engine.spi.BackendRemote;

/**
 * A peer's device region as this process reaches it: the same addresses when the peer is this
 * process, else the allocation opened from its IPC handle. Addresses in transfer ops are the
 * owner's; {@link #translate} maps them here.
 */
final class CudaRemote implements BackendRemote {
  private final long ownerBase;
  private final long localBase;
  private final ImportedMemory imported;

  CudaRemote(long ownerBase, long localBase, ImportedMemory imported) {
    this.ownerBase = ownerBase;
    this.localBase = localBase;
    this.imported = imported;
  }

  /** The address in this process of {@code ownerAddress} in the owner's. */
  long translate(long ownerAddress) {
    return localBase + (ownerAddress - ownerBase);
  }

  boolean imported() {
    return imported != null;
  }

  @Override
  public void close() {
    if (imported != null) {
      imported.close();
    }
  }
}
