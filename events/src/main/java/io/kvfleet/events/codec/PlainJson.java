package io.kvfleet.events.codec;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A cursor over JSON in the one plain form kvfleet's writer gives it: no whitespace, strings of
 * printable ASCII with nothing escaped, integers of plain digits. Anything else throws {@link #NOT_PLAIN}
 * (preallocated, no stack trace), and the caller hands the document to Jackson. Not thread-safe.
 */
final class PlainJson {
  /** Thrown where the bytes leave the plain form: Jackson decides. */
  static final RuntimeException NOT_PLAIN = new RuntimeException("not in the plain form", null, false, false) {};

  private final byte[] bytes;
  private int at;

  PlainJson(byte[] bytes) {
    this.bytes = bytes;
  }

  boolean atEnd() {
    return at == bytes.length;
  }

  /** Consumes {@code b}, or throws. */
  void expect(char b) {
    if (at >= bytes.length || bytes[at] != b) {
      throw NOT_PLAIN;
    }
    at++;
  }

  /** Consumes {@code b} if it is next. */
  boolean skip(char b) {
    if (at < bytes.length && bytes[at] == b) {
      at++;
      return true;
    }
    return false;
  }

  /** Consumes {@code null} if it is next. */
  boolean skipNull() {
    if (at + 4 <= bytes.length && bytes[at] == 'n' && bytes[at + 1] == 'u' && bytes[at + 2] == 'l'
        && bytes[at + 3] == 'l') {
      at += 4;
      return true;
    }
    return false;
  }

  /** A field name and its colon: the index of the name in {@code names} (tried from {@code hint}), or throws. */
  int name(byte[][] names, int hint) {
    expect('"');
    for (int k = 0; k < names.length; k++) {
      int i = (hint + k) % names.length;
      byte[] name = names[i];
      int end = at + name.length;
      if (end + 1 < bytes.length && bytes[end] == '"' && bytes[end + 1] == ':'
          && Arrays.equals(bytes, at, end, name, 0, name.length)) {
        at = end + 2;
        return i;
      }
    }
    throw NOT_PLAIN;
  }

  /** A plain string. */
  String string() {
    int start = at + 1;
    return new String(bytes, start, skipString(null), StandardCharsets.ISO_8859_1);
  }

  /**
   * A plain string's length, the string not made; with {@code expected}, -1 unless it is that text
   * or empty.
   */
  int skipString(byte[] expected) {
    expect('"');
    int start = at;
    for (; at < bytes.length; at++) {
      byte b = bytes[at];
      if (b == '"') {
        int length = at++ - start;
        boolean matches = expected == null || length == 0
            || Arrays.equals(bytes, start, start + length, expected, 0, expected.length);
        return matches ? length : -1;
      }
      if (b < 0x20 || b > 0x7e || b == '\\') {
        throw NOT_PLAIN;
      }
    }
    throw NOT_PLAIN;
  }

  /**
   * A plain string read as {@code StreamingReader.decimal} reads its text, without making it: the
   * value, or {@code Long.MIN_VALUE} where that gives it.
   */
  long quotedDecimal() {
    int start = at + 1;
    int length = skipString(null);
    int digits = start < at && bytes[start] == '-' ? 1 : 0;
    if (length == 0 || length > 19 || length == digits || length - digits > 18) {
      return Long.MIN_VALUE;
    }
    long value = 0;
    for (int i = start + digits; i < start + length; i++) {
      if (bytes[i] < '0' || bytes[i] > '9') {
        return Long.MIN_VALUE;
      }
      value = value * 10 + (bytes[i] - '0');
    }
    return digits == 1 ? -value : value;
  }

  /** A plain integer of at most {@code digits} digits: 0, or an optional minus and no leading zero. */
  long integer(int digits) {
    boolean negative = skip('-');
    int start = at;
    long value = 0;
    while (at < bytes.length && bytes[at] >= '0' && bytes[at] <= '9') {
      value = value * 10 + (bytes[at++] - '0');
    }
    int n = at - start;
    if (n == 0 || n > digits || (n > 1 && bytes[start] == '0') || (negative && value == 0)) {
      throw NOT_PLAIN;
    }
    return negative ? -value : value;
  }

  /** {@code true} or {@code false}. */
  boolean bool() {
    if (skipWord("true")) {
      return true;
    }
    if (skipWord("false")) {
      return false;
    }
    throw NOT_PLAIN;
  }

  private boolean skipWord(String word) {
    int end = at + word.length();
    if (end > bytes.length) {
      return false;
    }
    for (int i = 0; i < word.length(); i++) {
      if (bytes[at + i] != word.charAt(i)) {
        return false;
      }
    }
    at = end;
    return true;
  }
}
