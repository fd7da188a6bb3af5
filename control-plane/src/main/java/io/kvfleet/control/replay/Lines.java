package io.kvfleet.control.replay;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/** Splits a stream into lines of bytes ({@code \n}-terminated), without decoding them. */
final class Lines {
  /**
   * The longest line read. One export line holds one Kafka record (1 MiB by the broker's default,
   * some hundred MiB where raised); without a bound a few kilobytes of zstd holding one endless
   * line grew the buffer until the heap or the array size ran out.
   */
  static final int MAX_LINE = 256 << 20;

  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long NEWLINES = 0x0a0a0a0a0a0a0a0aL;
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  private final InputStream in;
  private byte[] buffer = new byte[1 << 16];
  private int start;
  private int end;
  private boolean eof;

  /** A line: {@code bytes[offset, offset + length)}, valid until the next call. */
  record Line(byte[] bytes, int offset, int length) {}

  Lines(InputStream in) {
    this.in = in;
  }

  /** The next line, without its terminator; null at the end. */
  Line next() throws IOException {
    while (true) {
      int i = newline(buffer, start, end);
      if (i >= 0) {
        var line = new Line(buffer, start, i - start);
        start = i + 1;
        return line;
      }
      if (eof) {
        if (start == end) {
          return null;
        }
        var line = new Line(buffer, start, end - start);
        start = end;
        return line;
      }
      fill();
    }
  }

  /**
   * Where the first {@code \n} of {@code b[from, to)} is, or -1: eight bytes a word (a zero byte of
   * the word xor newlines, found by the usual borrow trick), the last few one by one.
   */
  static int newline(byte[] b, int from, int to) {
    int i = from;
    for (; i + 8 <= to; i += 8) {
      long x = (long) LONGS.get(b, i) ^ NEWLINES;
      long found = (x - ONES) & ~x & HIGHS;
      if (found != 0) {
        return i + (Long.numberOfTrailingZeros(found) >>> 3);
      }
    }
    for (; i < to; i++) {
      if (b[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private void fill() throws IOException {
    if (start > 0) {
      System.arraycopy(buffer, start, buffer, 0, end - start);
      end -= start;
      start = 0;
    }
    if (end == buffer.length) {
      if (buffer.length >= MAX_LINE) {
        throw new IOException("a line longer than " + MAX_LINE + " bytes, longer than any export record");
      }
      buffer = Arrays.copyOf(buffer, Math.min(buffer.length * 2, MAX_LINE));
    }
    int n = in.read(buffer, end, buffer.length - end);
    if (n < 0) {
      eof = true;
    } else {
      end += n;
    }
  }
}
