package io.kvfleet.engine.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads {@code MemAvailable} from {@code /proc/meminfo}. */
public final class MemInfo {
  private MemInfo() {}

  /** Bytes the kernel estimates are available for new allocations, or -1 when unknown. */
  public static long available() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemAvailable:")) {
          String[] fields = line.split("\\s+");
          return Long.parseLong(fields[1]) * 1024;
        }
      }
      return -1;
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
  }
}
