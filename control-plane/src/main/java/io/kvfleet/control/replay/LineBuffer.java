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

  /** The ASCII characters a JSON string holds as they are: printable, but the quote and the backslash. */
  private static final boolean[] PLAIN = new boolean[128];

  static {
    for (int c = 0x20; c < 0x7f; c++) {
      PLAIN[c] = c != '"' && c != '\\';
    }
  }

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
    int n = s.length();
    room(n + 2);
    int at = size;
    buf[at++] = '"';
    for (int k = 0; k < n; k++) {
      char c = s.charAt(k);
      if (c >= 0x80 || !PLAIN[c]) {
        return quoted(s); // something to escape or encode: Jackson's encoder, from the start
      }
      buf[at++] = (byte) c;
    }
    buf[at++] = '"';
    size = at;
    return this;
  }

  private LineBuffer quoted(String s) {
    room(1);
    buf[size++] = '"';
    bytes(QUOTE.quoteAsUTF8(s));
    room(1);
    buf[size++] = '"';
    return this;
  }

  /**
   * Appends {@code b} as a JSON string if every byte is printable ASCII that needs no escape
   * (what keys and header values are); false, with nothing appended, otherwise.
   */
  boolean plainString(byte[] b) {
    for (byte c : b) {
      if (c < 0 || !PLAIN[c]) {
        return false;
      }
    }
    room(b.length + 2);
    buf[size++] = '"';
    System.arraycopy(b, 0, buf, size, b.length);
    size += b.length;
    buf[size++] = '"';
    return true;
  }

  /** Appends a number in decimal, without a {@code String} in between. */
  LineBuffer number(long n) {
    if (n < 0) {
      return raw(Long.toString(n)); // never for offsets, partitions or record timestamps
    }
    room(20);
    int digits = 1;
    for (long rest = n / 10; rest > 0; rest /= 10) {
      digits++;
    }
    for (int k = size + digits - 1; k >= size; k--) {
      buf[k] = (byte) ('0' + n % 10);
      n /= 10;
    }
    size += digits;
    return this;
  }

  /** How many bytes are buffered: a mark for {@link #since}. */
  int mark() {
    return size;
  }

  /** Forgets what was appended after {@code mark}. */
  void drop(int mark) {
    size = mark;
  }

  /** A copy of what was appended after {@code mark} (a fragment to append again with {@link #bytes}). */
  byte[] since(int mark) {
    return Arrays.copyOfRange(buf, mark, size);
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
