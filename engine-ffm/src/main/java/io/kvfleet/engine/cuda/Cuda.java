package io.kvfleet.engine.cuda;

import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.cuda.internal.CudartLibrary;
import java.util.Optional;

/** Entry points that need no backend: is libcudart here, and what does it find. */
public final class Cuda {
  private Cuda() {}

  /** Why libcudart did not load ({@code libcudart.so.13 or libcudart.so.12 not found (...)}). */
  public static Optional<String> libraryError() {
    return CudartLibrary.loadError();
  }

  /** The libcudart that loaded, or the names tried. */
  public static String library() {
    return CudartLibrary.name();
  }

  /** Probes runtime, driver and devices; throws {@link EngineException} only without libcudart. */
  public static CudaProbe probe() {
    requireLibrary();
    return CudaProbe.run();
  }

  /** Throws {@link EngineException#backendNotAvailable} when libcudart did not load. */
  static void requireLibrary() {
    Optional<String> missing = libraryError();
    if (missing.isPresent()) {
      throw EngineException.backendNotAvailable(CudaBackend.NAME, missing.get());
    }
  }
}
