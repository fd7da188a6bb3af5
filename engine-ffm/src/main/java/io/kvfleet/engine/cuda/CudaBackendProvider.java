package io.kvfleet.engine.cuda;

import io.kvfleet.engine.Capability;
import io.kvfleet.engine.EngineConfig;
import io.kvfleet.engine.spi.BackendProbe;
import io.kvfleet.engine.spi.BackendProvider;
import java.util.Optional;

/**
 * Finds libcudart. Without it the cuda backend is unavailable and says why; with it the backend
 * opens even when the driver or GPU is missing, so that VRAM registrations fail with the CUDA
 * error and a remedy rather than reaching a backend that would misread the pointer.
 */
public final class CudaBackendProvider implements BackendProvider {

  @Override
  public String name() {
    return CudaBackend.NAME;
  }

  /** After ucx (10), before host (100): outcomes list ucx, then cuda, then host. */
  @Override
  public int priority() {
    return 50;
  }

  @Override
  public BackendProbe probe(EngineConfig config) {
    Optional<String> missing = Cuda.libraryError();
    if (missing.isPresent()) {
      return new BackendProbe.Unavailable(Capability.unavailable(name(), missing.get()
          + "; install the CUDA runtime (libcudart.so.13 or .so.12, e.g. the cuda-cudart package"
          + " or the nvidia-cuda-runtime wheel) or set -Dkvfleet.cuda.library to its path"));
    }
    try {
      return new BackendProbe.Ready(new CudaBackend(CudaProbe.run()));
    } catch (LinkageError | RuntimeException e) {
      return new BackendProbe.Unavailable(Capability.unavailable(name(),
          Cuda.library() + " loaded but could not be bound: " + e));
    }
  }
}
