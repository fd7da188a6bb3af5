package io.kvfleet.control.replay;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Where a JSON value's outermost bracket closes: a walk of brackets outside strings, not a parse
 * (the value is parsed once, when it is decoded). Eight bytes a word: a word holding none of the
 * bytes that matter is passed over at once, and in one that does only those bytes are looked at.
 *
 * <p>Why: the walk a byte at a time was a fifth of reading an export line (the value is most of the
 * line, and every byte of it a branch).
 */
final class ValueEnd {
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long LOWS = 0x7f7f7f7f7f7f7f7fL;
  private static final long QUOTES = 0x2222222222222222L;
  /**
   * A byte or'ed with this gives 0x7f for each of the brackets and the backslash (and for
   * {@code X Y Z ^ _ x y z | ~} and DEL: the walk looks at the byte itself).
   */
  private static final long FOLD = 0x2727272727272727L;

  private ValueEnd() {}

  /**
   * The index just past the bracket in {@code b[from, to)} that brings the depth of brackets outside
   * strings back to zero, counted from {@code from}; -1 when none does. A backslash in a string
   * escapes the byte after it.
   */
  static int close(byte[] b, int from, int to) {
    int depth = 0;
    boolean inString = false;
    boolean escaped = false; // the byte at i is escaped (a backslash ended the word before)
    int i = from;
    for (; i + 8 <= to; i += 8) {
      long w = (long) LONGS.get(b, i);
      long flags = zeros(w ^ QUOTES) | zeros((w | FOLD) ^ LOWS);
      if (escaped) {
        flags &= ~0xffL;
        escaped = false;
      }
      while (flags != 0) {
        int k = Long.numberOfTrailingZeros(flags) >>> 3;
        flags &= flags - 1;
        byte c = b[i + k];
        if (inString) {
          if (c == '"') {
            inString = false;
          } else if (c == '\\') {
            if (k == 7) {
              escaped = true;
            } else {
              flags &= ~(0xffL << (8 * (k + 1)));
            }
          }
        } else if (c == '"') {
          inString = true;
        } else if (c == '{' || c == '[') {
          depth++;
        } else if ((c == '}' || c == ']') && --depth == 0) {
          return i + k + 1;
        }
      }
    }
    for (; i < to; i++) {
      byte c = b[i];
      if (escaped) {
        escaped = false;
      } else if (inString) {
        if (c == '"') {
          inString = false;
        } else if (c == '\\') {
          escaped = true;
        }
      } else if (c == '"') {
        inString = true;
      } else if (c == '{' || c == '[') {
        depth++;
      } else if ((c == '}' || c == ']') && --depth == 0) {
        return i + 1;
      }
    }
    return -1;
  }

  /** 0x80 in each byte of {@code x} that is zero, nothing elsewhere (exact: no borrow between bytes). */
  private static long zeros(long x) {
    return ~(((x & LOWS) + LOWS) | x | LOWS);
  }
}
