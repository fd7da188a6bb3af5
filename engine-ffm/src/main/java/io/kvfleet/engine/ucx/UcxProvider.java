package io.kvfleet.engine.ucx;

import io.kvfleet.engine.Capability;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.spi.BackendProbe;
import io.kvfleet.engine.spi.BackendProvider;
import io.kvfleet.engine.ucx.internal.UcpLibrary;
import java.util.Optional;

/** Finds libucp (unless {@link UcxSwitch} turns UCX off); without it the UCX backend is unavailable and says why. */
public final class UcxProvider implements BackendProvider {

  @Override
  public String name() {
    return UcxBackend.NAME;
  }

  @Override
  public int priority() {
    return 10;
  }

  @Override
  public BackendProbe probe(EngineConfig config) {
    Optional<String> off = UcxSwitch.offReason();
    if (off.isPresent()) {
      return new BackendProbe.Unavailable(Capability.unavailable(name(), off.get()));
    }
    Optional<String> missing = UcpLibrary.loadError();
    if (missing.isPresent()) {
      return new BackendProbe.Unavailable(Capability.unavailable(name(), missing.get()));
    }
    try {
      return new BackendProbe.Ready(UcxBackend.open(config));
    } catch (EngineException e) {
      return new BackendProbe.Unavailable(Capability.unavailable(name(), e.getMessage()));
    }
  }
}
