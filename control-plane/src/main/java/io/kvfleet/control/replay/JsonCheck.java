package io.kvfleet.control.replay;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Whether some bytes are exactly one JSON object (RFC 8259, strict: no comments, no trailing
 * commas, no bare control characters, valid UTF-8) on one line, so an export can embed them as
 * they are. One pass over the bytes and no allocation: an export checks every value it writes, and
 * decoding each into an event only to learn that it is JSON cost ten times more. Jackson's strict
 * parser is the reference this is tested against ({@code JsonCheckTest}).
 */
final class JsonCheck {
  private static final int MAX_DEPTH = 1_000; // Jackson's own default nesting limit
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  /** The bytes a string may hold as they are: printable ASCII but the quote and the backslash. */
  private static final boolean[] PLAIN = new boolean[256];

  static {
    for (int c = 0x20; c < 0x80; c++) {
      PLAIN[c] = c != '"' && c != '\\';
    }
  }

  private final byte[] b;
  private final int end;
  private int i;

  private JsonCheck(byte[] bytes) {
    this.b = bytes;
    this.end = bytes.length;
  }

  /** Whether {@code bytes} hold one JSON object, surrounding spaces allowed, and no line break outside it. */
  static boolean isObject(byte[] bytes) {
    var check = new JsonCheck(bytes);
    try {
      check.spaces();
      if (check.i >= check.end || bytes[check.i] != '{') {
        return false;
      }
      check.value(0);
      check.spaces();
      return check.i == check.end;
    } catch (NotJson e) {
      return false;
    }
  }

  /** Spaces and tabs only: a line break would end the export's line. */
  private void spaces() {
    while (i < end && (b[i] == ' ' || b[i] == '\t')) {
      i++;
    }
  }

  private void value(int depth) {
    if (i >= end) {
      throw NotJson.INSTANCE;
    }
    switch (b[i]) {
      case '{' -> object(depth + 1);
      case '[' -> array(depth + 1);
      case '"' -> string();
      case 't' -> literal("true");
      case 'f' -> literal("false");
      case 'n' -> literal("null");
      default -> number();
    }
  }

  private void object(int depth) {
    if (depth > MAX_DEPTH) {
      throw NotJson.INSTANCE;
    }
    i++;
    spaces();
    if (at('}')) {
      i++;
      return;
    }
    while (true) {
      spaces();
      if (!at('"')) {
        throw NotJson.INSTANCE;
      }
      string();
      spaces();
      expect(':');
      spaces();
      value(depth);
      spaces();
      if (at(',')) {
        i++;
      } else {
        expect('}');
        return;
      }
    }
  }

  private void array(int depth) {
    if (depth > MAX_DEPTH) {
      throw NotJson.INSTANCE;
    }
    i++;
    spaces();
    if (at(']')) {
      i++;
      return;
    }
    while (true) {
      spaces();
      value(depth);
      spaces();
      if (at(',')) {
        i++;
      } else {
        expect(']');
        return;
      }
    }
  }

  private void string() {
    i++; // the opening quote
    while (i < end) {
      // Most of a value is string content: skip plain bytes eight at a time.
      while (i + 8 <= end && plain((long) LONGS.get(b, i))) {
        i += 8;
      }
      if (i >= end) {
        break;
      }
      int c = b[i] & 0xff;
      if (PLAIN[c]) {
        i++;
        continue;
      }
      if (c == '"') {
        i++;
        return;
      } else if (c == '\\') {
        escape();
      } else if (c < 0x20) {
        throw NotJson.INSTANCE;
      } else if (c < 0x80) {
        i++;
      } else {
        utf8(c);
      }
    }
    throw NotJson.INSTANCE;
  }

  /**
   * Whether all eight bytes of {@code w} may stand in a string as they are (the table's {@code PLAIN}):
   * none at or above 0x80, below 0x20, a quote or a backslash. Exact: the zero-byte tests below
   * can only err towards "not plain" when another byte already is, and then the byte loop decides.
   */
  private static boolean plain(long w) {
    long special = w | (w - 0x2020202020202020L) | zero(w ^ 0x2222222222222222L) | zero(w ^ 0x5c5c5c5c5c5c5c5cL);
    return (special & HIGHS) == 0;
  }

  /** The high bit set in every byte that is zero (and possibly above one that is). */
  private static long zero(long v) {
    return (v - ONES) & ~v;
  }

  private void escape() {
    if (++i >= end) {
      throw NotJson.INSTANCE;
    }
    switch (b[i]) {
      case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> i++;
      case 'u' -> {
        if (i + 4 >= end) {
          throw NotJson.INSTANCE;
        }
        for (int k = 1; k <= 4; k++) {
          if (Character.digit(b[i + k], 16) < 0) {
            throw NotJson.INSTANCE;
          }
        }
        i += 5;
      }
      default -> throw NotJson.INSTANCE;
    }
  }

  /** One multi-byte UTF-8 sequence starting with {@code lead} (RFC 3629: shortest form, no surrogates). */
  private void utf8(int lead) {
    int n;
    int min;
    if (lead >= 0xc2 && lead <= 0xdf) {
      n = 1;
      min = 0x80;
    } else if (lead >= 0xe0 && lead <= 0xef) {
      n = 2;
      min = 0x800;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      n = 3;
      min = 0x10000;
    } else {
      throw NotJson.INSTANCE;
    }
    if (i + n >= end) {
      throw NotJson.INSTANCE;
    }
    int cp = lead & (0x3f >> n);
    for (int k = 1; k <= n; k++) {
      int c = b[i + k] & 0xff;
      if ((c & 0xc0) != 0x80) {
        throw NotJson.INSTANCE;
      }
      cp = cp << 6 | c & 0x3f;
    }
    if (cp < min || cp > 0x10ffff || cp >= 0xd800 && cp <= 0xdfff) {
      throw NotJson.INSTANCE;
    }
    i += n + 1;
  }

  private void literal(String word) {
    if (i + word.length() > end) {
      throw NotJson.INSTANCE;
    }
    for (int k = 0; k < word.length(); k++) {
      if (b[i + k] != word.charAt(k)) {
        throw NotJson.INSTANCE;
      }
    }
    i += word.length();
  }

  /** {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?} */
  private void number() {
    if (at('-')) {
      i++;
    }
    if (at('0')) {
      i++;
    } else if (digits() == 0) {
      throw NotJson.INSTANCE;
    }
    if (at('.')) {
      i++;
      if (digits() == 0) {
        throw NotJson.INSTANCE;
      }
    }
    if (at('e') || at('E')) {
      i++;
      if (at('+') || at('-')) {
        i++;
      }
      if (digits() == 0) {
        throw NotJson.INSTANCE;
      }
    }
  }

  private int digits() {
    int from = i;
    while (i < end && b[i] >= '0' && b[i] <= '9') {
      i++;
    }
    return i - from;
  }

  private boolean at(char c) {
    return i < end && b[i] == c;
  }

  private void expect(char c) {
    if (!at(c)) {
      throw NotJson.INSTANCE;
    }
    i++;
  }

  /** Thrown to unwind the check; one instance, no stack trace. */
  private static final class NotJson extends RuntimeException {
    static final NotJson INSTANCE = new NotJson();

    private NotJson() {
      super("not JSON", null, false, false);
    }
  }
}
