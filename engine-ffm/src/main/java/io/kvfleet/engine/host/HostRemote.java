package io.kvfleet.engine.host;

import io.kvfleet.engine.spi.BackendRemote;

/** A peer's region as the host backend sees it: a range in another (or this) process. */
record HostRemote(HostKey key) implements BackendRemote {

  @Override
  public void close() {}
}
