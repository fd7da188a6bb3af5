package io.kvfleet.engine.host;

import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.spi.BackendProbe;
import io.kvfleet.engine.spi.BackendProvider;

/** The libc-only backend; available wherever Linux is. */
public final class HostProvider implements BackendProvider {

  @Override
  public String name() {
    return HostBackend.NAME;
  }

  @Override
  public int priority() {
    return 100;
  }

  @Override
  public BackendProbe probe(EngineConfig config) {
    return new BackendProbe.Ready(new HostBackend());
  }
}
