package io.kvfleet.control.replay;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/** Splits a stream into lines of bytes ({@code \n}-terminated), without decoding them. */
final class Lines {
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
      buffer = Arrays.copyOf(buffer, buffer.length * 2);
    }
    int n = in.read(buffer, end, buffer.length - end);
    if (n < 0) {
      eof = true;
    } else {
      end += n;
    }
  }
}
