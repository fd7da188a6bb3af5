package io.kvfleet.engine.host;

import io.kvfleet.engine.spi.BackendRegion;

/** A host-backend registration: the grant peers reach it through; closing revokes the grant. */
record HostRegion(long address, long length, String grant, byte[] key) implements BackendRegion {

  @Override
  public byte[] packedKey() {
    return key.clone();
  }

  @Override
  public void close() {
    Grants.revoke(grant);
  }
}
