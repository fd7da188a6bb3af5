package io.kvfleet.engine.bench;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;

/**
 * The KV-page row's reference: the same scattered page copy done by one process with libc's
 * {@code memcpy} (what UCX's shared-memory transports call), i.e. what this machine's memory
 * allows. ucx_perftest cannot run that pattern (its put test rewrites one cache-resident buffer),
 * so the KV row's ratio to it is not like for like; this is.
 */
@SuppressWarnings("restricted") // binds libc memcpy
final class KvReference {
  private KvReference() {}

  private static final MethodHandle MEMCPY = Linker.nativeLinker().downcallHandle(
      Linker.nativeLinker().defaultLookup().find("memcpy").orElseThrow(),
      FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
      Linker.Option.critical(false));

  /** Best of {@code repeats} runs of {@code batches} batches of the page pairs. */
  static Measurement measure(List<long[]> pages, long pageSize, int batches, int repeats) {
    long sourceBytes = pages.size() * pageSize;
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment source = arena.allocate(sourceBytes, 4096);
      MemorySegment destination = arena.allocate(2 * sourceBytes, 4096);
      Patterns.fill(source, 5);
      Measurement best = null;
      for (int run = 0; run < repeats; run++) {
        copy(source, destination, pages, pageSize); // warm
        long start = System.nanoTime();
        for (int batch = 0; batch < batches; batch++) {
          copy(source, destination, pages, pageSize);
        }
        long ops = (long) batches * pages.size();
        best = Measurement.best(best, new Measurement(ops * pageSize, ops, System.nanoTime() - start));
      }
      return best;
    }
  }

  private static void copy(MemorySegment source, MemorySegment destination, List<long[]> pages,
      long pageSize) {
    long from = source.address();
    long to = destination.address();
    try {
      for (long[] pair : pages) {
        long ignored = (long) MEMCPY.invokeExact(to + pair[1], from + pair[0], pageSize);
      }
    } catch (Throwable t) {
      throw new IllegalStateException("memcpy failed", t);
    }
  }
}
