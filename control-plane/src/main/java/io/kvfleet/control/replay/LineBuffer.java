package io.kvfleet.control.replay;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Export lines built as bytes and handed on in blocks of about 64 KiB: what a Jackson generator did
 * per field, less the copy of every embedded value through a {@code String}. Strings are quoted by
 * Jackson's own encoder, so a line reads as the generator wrote it.
 */
final class LineBuffer {
  private static final int BLOCK = 1 << 16;
  private static final JsonStringEncoder QUOTE = JsonStringEncoder.getInstance();

  private byte[] buf = new byte[BLOCK * 2];
  private int size;

  /** Appends ASCII text as it is. */
  LineBuffer raw(String ascii) {
    int n = ascii.length();
    room(n);
    for (int k = 0; k < n; k++) {
      buf[size++] = (byte) ascii.charAt(k);
    }
    return this;
  }

  /** Appends a JSON string: quoted, escaped, UTF-8. */
  LineBuffer string(String s) {
    room(1);
    buf[size++] = '"';
    bytes(QUOTE.quoteAsUTF8(s));
    room(1);
    buf[size++] = '"';
    return this;
  }

  /** Appends a number in decimal. */
  LineBuffer number(long n) {
    return raw(Long.toString(n));
  }

  /** Appends bytes as they are. */
  LineBuffer bytes(byte[] b) {
    room(b.length);
    System.arraycopy(b, 0, buf, size, b.length);
    size += b.length;
    return this;
  }

  /** Hands what is buffered to {@code out} once it fills a block. */
  void drainIfFull(OutputStream out) throws IOException {
    if (size >= BLOCK) {
      drain(out);
    }
  }

  /** Hands everything buffered to {@code out}. */
  void drain(OutputStream out) throws IOException {
    out.write(buf, 0, size);
    size = 0;
  }

  /** What is buffered, as text (for tests). */
  @Override
  public String toString() {
    return new String(buf, 0, size, StandardCharsets.UTF_8);
  }

  private void room(int n) {
    if (size + n > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + n));
    }
  }
}
