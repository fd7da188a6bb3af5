package io.kvfleet.engine.cuda;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Path;

/** The class folders of this module, for child JVMs (the engine has no runtime dependencies). */
final class ClassPaths {
  private ClassPaths() {}

  /** The engine's classes and the folder {@code main} came from. */
  static String of(Class<?> main) {
    return location(CudaBackendProvider.class) + File.pathSeparator + location(main);
  }

  private static String location(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
