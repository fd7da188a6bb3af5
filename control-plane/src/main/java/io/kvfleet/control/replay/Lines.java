package io.kvfleet.control.replay;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/** Splits a stream into lines of bytes ({@code \n}-terminated), without decoding them. */
final class Lines {
  /**
   * The longest line read. One export line holds one Kafka record (1 MiB by the broker's default,
   * some hundred MiB where raised); without a bound a few kilobytes of zstd holding one endless
   * line grew the buffer until the heap or the array size ran out.
   */
  static final int MAX_LINE = 256 << 20;

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
      for (int i = start; i < end; i++) {
        if (buffer[i] == '\n') {
          var line = new Line(buffer, start, i - start);
          start = i + 1;
          return line;
        }
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
