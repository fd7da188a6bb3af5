package io.kvfleet.engine.cuda.internal;

import java.util.List;
import java.util.Optional;

/**
 * The driver library, {@code libcuda.so.1}, looked up once and only for what the runtime API lacks:
 * the allocation range around a device pointer. It ships with the NVIDIA driver, so a machine with
 * a GPU has it and a machine without a driver does not; {@code -Dkvfleet.cuda.driver.library}
 * overrides the name.
 */
public final class LibcudaLibrary {
  private LibcudaLibrary() {}

  static final NativeLibrary LIBRARY = NativeLibrary.load(
      NativeLibrary.names("kvfleet.cuda.driver.library", "KVFLEET_CUDA_DRIVER_LIBRARY",
          List.of("libcuda.so.1")));

  public static String name() {
    return LIBRARY.name();
  }

  /** Why the driver library is not loaded, or empty when it is. */
  public static Optional<String> loadError() {
    return LIBRARY.loadError();
  }
}
