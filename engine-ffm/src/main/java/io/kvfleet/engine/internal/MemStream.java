package io.kvfleet.engine.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;

/** Collects what a native "print to FILE*" function writes, through {@code open_memstream}. */
@SuppressWarnings("restricted") // FFM by design: native addresses from libc and UCX
public final class MemStream {
  private MemStream() {}

  /** Runs {@code printer} with a {@code FILE*} and returns what it wrote. */
  public static String capture(Consumer<MemorySegment> printer) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment bufferOut = arena.allocate(ADDRESS);
      MemorySegment sizeOut = arena.allocate(JAVA_LONG);
      MemorySegment file = Libc.openMemstream(bufferOut, sizeOut);
      if (file.equals(MemorySegment.NULL)) {
        throw new IllegalStateException("open_memstream failed");
      }
      try {
        printer.accept(file);
      } finally {
        int status = Libc.fclose(file);
        if (status != 0) {
          throw new IllegalStateException("fclose of a memstream failed with " + status);
        }
      }
      MemorySegment buffer = bufferOut.get(ADDRESS, 0);
      long size = sizeOut.get(JAVA_LONG, 0);
      try {
        return size == 0 ? "" : buffer.reinterpret(size + 1).getString(0);
      } finally {
        Libc.free(buffer);
      }
    }
  }
}
