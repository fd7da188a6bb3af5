package io.kvfleet.engine.host;

import io.kvfleet.engine.spi.BackendRegion;

/** A host-backend registration: nothing native to hold, only the key a peer needs. */
record HostRegion(long address, long length, byte[] key) implements BackendRegion {

  @Override
  public byte[] packedKey() {
    return key.clone();
  }

  @Override
  public void close() {}
}
