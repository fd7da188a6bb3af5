package io.kvfleet.control.dataplane;

import io.kvfleet.engine.Engine;
import io.kvfleet.engine.MemoryType;
import io.kvfleet.engine.cuda.Cuda;
import io.kvfleet.engine.cuda.CudaCopy;
import io.kvfleet.engine.cuda.PinnedHostMemory;
import java.util.Optional;

/** Staging with CUDA: pinned host buffers ({@code cudaMallocHost}) and {@code cudaMemcpy}. */
final class CudaStaging implements Staging {
  private final Optional<String> unavailable;

  /** Usable where the engine's cuda backend is: libcudart loads, a driver and a GPU answer. */
  CudaStaging(Engine engine) {
    var cuda = engine.capability("cuda");
    if (cuda.isEmpty()) {
      this.unavailable = Optional.of("CUDA cannot copy device memory here: the engine has no cuda backend ("
          + Cuda.libraryError().orElse("left out of its configuration") + ")");
    } else if (cuda.get().available() && cuda.get().supports(MemoryType.VRAM)) {
      this.unavailable = Optional.empty();
    } else {
      // The probe's findings; the cuda capability's detail adds its remediation, which the event carries apart.
      this.unavailable = Optional.of("CUDA cannot copy device memory here: " + Cuda.probe().summary());
    }
  }

  @Override
  public String name() {
    return "cuda";
  }

  @Override
  public Optional<String> unavailable() {
    return unavailable;
  }

  @Override
  public Buffer allocate(long length) {
    var memory = PinnedHostMemory.allocate(length);
    return new Buffer(memory.address(), memory.length(), memory::close);
  }

  @Override
  public Optional<CopyError> copy(long destination, long source, long length) {
    return CudaCopy.copy(destination, source, length)
        .map(e -> new CopyError(e.code(), e.describe()));
  }
}
