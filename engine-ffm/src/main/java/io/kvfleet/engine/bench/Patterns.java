package io.kvfleet.engine.bench;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HexFormat;
import java.util.zip.CRC32C;

/** Deterministic byte patterns and checksums, so that two processes can agree on content. */
public final class Patterns {
  private Patterns() {}

  /** Fills {@code segment} with a pattern derived from {@code seed} and the offset. */
  public static void fill(MemorySegment segment, long seed) {
    long size = segment.byteSize() & ~7L;
    for (long offset = 0; offset < size; offset += 8) {
      segment.set(ValueLayout.JAVA_LONG_UNALIGNED, offset, (offset + seed) * 0x9E3779B97F4A7C15L);
    }
  }

  /** CRC-32C of a slice, as eight hex digits. */
  public static String crc(MemorySegment segment, long offset, long length) {
    CRC32C crc = new CRC32C();
    crc.update(segment.asSlice(offset, length).asByteBuffer());
    return HexFormat.of().toHexDigits((int) crc.getValue());
  }
}
