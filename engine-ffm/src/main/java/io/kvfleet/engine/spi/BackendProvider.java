package io.kvfleet.engine.spi;

import io.kvfleet.engine.EngineConfig;

/** Found with {@link java.util.ServiceLoader}; opens one backend per engine. */
public interface BackendProvider {

  /** The backend's name ({@code ucx}, {@code host}, {@code cuda}). */
  String name();

  /** Lower goes first when the engine allocates memory and lists outcomes. */
  int priority();

  /** Loads the native library and opens the backend, or says why it cannot. Never throws. */
  BackendProbe probe(EngineConfig config);
}
