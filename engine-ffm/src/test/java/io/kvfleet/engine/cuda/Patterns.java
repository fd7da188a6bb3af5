package io.kvfleet.engine.cuda;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** A byte pattern that differs per seed and per 8-byte word, to verify copies byte for byte. */
final class Patterns {
  private Patterns() {}

  static void fill(MemorySegment segment, long seed) {
    for (long i = 0; i + 8 <= segment.byteSize(); i += 8) {
      segment.set(ValueLayout.JAVA_LONG_UNALIGNED, i, word(i, seed));
    }
  }

  /** The offset of the first word that does not hold the pattern, or -1. */
  static long firstMismatch(MemorySegment segment, long patternOffset, long seed) {
    for (long i = 0; i + 8 <= segment.byteSize(); i += 8) {
      if (segment.get(ValueLayout.JAVA_LONG_UNALIGNED, i) != word(patternOffset + i, seed)) {
        return i;
      }
    }
    return -1;
  }

  private static long word(long offset, long seed) {
    return offset * 0x9E3779B97F4A7C15L + seed;
  }
}
