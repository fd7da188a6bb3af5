package io.kvfleet.engine.cuda.internal;

import java.util.List;
import java.util.Optional;

/**
 * Finds libcudart once per process. The names come from {@code -Dkvfleet.cuda.library}, else
 * {@code KVFLEET_CUDA_LIBRARY} (comma-separated), else {@code libcudart.so.13} then {@code
 * libcudart.so.12}. Naming a library that does not exist is how tests and operators switch CUDA
 * off.
 */
public final class CudartLibrary {
  private CudartLibrary() {}

  public static final List<String> DEFAULT_NAMES = List.of("libcudart.so.13", "libcudart.so.12");

  static final NativeLibrary LIBRARY = NativeLibrary.load(
      NativeLibrary.names("kvfleet.cuda.library", "KVFLEET_CUDA_LIBRARY", DEFAULT_NAMES));

  /** The library name that loaded, or the names tried. */
  public static String name() {
    return LIBRARY.name();
  }

  /** Why the library is not loaded, or empty when it is. */
  public static Optional<String> loadError() {
    return LIBRARY.loadError();
  }
}
