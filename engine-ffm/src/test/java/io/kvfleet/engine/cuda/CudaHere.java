package io.kvfleet.engine.cuda;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** What this machine has, for tests that need a GPU, or need its absence, and skip visibly otherwise. */
final class CudaHere {
  private CudaHere() {}

  /** The probe, or a skip when libcudart is absent. */
  static CudaProbe probe() {
    assumeTrue(Cuda.libraryError().isEmpty(),
        () -> "libcudart is not installed here: " + Cuda.libraryError().orElse(""));
    return Cuda.probe();
  }

  /** A probe with a usable GPU, or a skip that says why there is none. */
  static CudaProbe gpu() {
    CudaProbe probe = probe();
    assumeTrue(probe.usable(), () -> "needs a GPU; " + probe.summary());
    return probe;
  }

  /** A probe that found the runtime but no driver, or a skip (a GPU machine runs the GPU tests). */
  static CudaProbe runtimeWithoutDriver() {
    CudaProbe probe = probe();
    assumeTrue(probe.driverVersion() == 0,
        () -> "needs a machine without an NVIDIA driver; this one has " + probe.version());
    return probe;
  }
}
