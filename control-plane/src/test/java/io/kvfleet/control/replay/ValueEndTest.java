package io.kvfleet.control.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** The word-at-a-time walk against the walk a byte at a time it replaced, kept here verbatim. */
class ValueEndTest {
  /** The bytes that matter, those a word flags that do not, and some that are neither. */
  private static final List<Byte> BYTES = List.of((byte) '"', (byte) '\\', (byte) '{', (byte) '}', (byte) '[',
      (byte) ']', (byte) 'x', (byte) 'Y', (byte) '_', (byte) '|', (byte) '~', (byte) 0x7f, (byte) 0x02, (byte) 0xdb,
      (byte) 0xfd, (byte) 'a', (byte) ':', (byte) ',', (byte) '1', (byte) ' ');

  @Property(tries = 5000)
  void closesWhereTheByteWalkCloses(@ForAll("texts") byte[] b, @ForAll @IntRange(max = 9) int cut,
      @ForAll @IntRange(max = 9) int trim) {
    int from = Math.min(cut, b.length);
    int to = Math.max(from, b.length - trim);
    assertThat(ValueEnd.close(b, from, to)).as(new String(b, StandardCharsets.ISO_8859_1))
        .isEqualTo(byteWalk(b, from, to));
  }

  @Example
  void passesOverWhatAStringHoldsAndWhatABackslashEscapesAcrossWords() {
    // The backslash is the last byte of the first word; the quote it escapes the first of the next word,
    // then the first byte of the tail walked a byte at a time.
    assertThat(close("{\"abcde\\\"}\"}xxxx")).isEqualTo(12);
    assertThat(close("{\"abcde\\\"}\"}x")).isEqualTo(12);
    assertThat(close("{\"abcd\\\"}\"}xx")).isEqualTo(11);
    assertThat(close("{\"a\":[1,{\"b\":\"}]\"}],\"c\":\"x\\\\\"}   ")).isEqualTo(30);
    assertThat(close("{\"a\":\"}")).isEqualTo(-1);
    assertThat(close("{\"zz_yy\":[{}]}{")).isEqualTo(14);
  }

  private static int close(String text) {
    byte[] b = text.getBytes(StandardCharsets.US_ASCII);
    int closed = ValueEnd.close(b, 0, b.length);
    assertThat(closed).isEqualTo(byteWalk(b, 0, b.length));
    return closed;
  }

  /** The walk as ExportReader.lastValueEnd made it before (its loop, from {@code from} to {@code to}). */
  private static int byteWalk(byte[] b, int from, int to) {
    int depth = 0;
    boolean inString = false;
    for (int i = from; i < to; i++) {
      byte c = b[i];
      if (inString) {
        if (c == '\\') {
          i++;
        } else if (c == '"') {
          inString = false;
        }
      } else if (c == '"') {
        inString = true;
      } else if (c == '{' || c == '[') {
        depth++;
      } else if (c == '}' || c == ']') {
        if (--depth == 0) {
          return i + 1;
        }
      }
    }
    return -1;
  }

  @Provide
  Arbitrary<byte[]> texts() {
    Arbitrary<byte[]> random = Arbitraries.of(BYTES).list().ofMaxSize(80).map(ValueEndTest::bytes);
    // Mostly brackets opened first, so that many walks reach depth zero somewhere in a long text.
    return Arbitraries.oneOf(random, random.map(b -> {
      byte[] opened = new byte[b.length + 1];
      opened[0] = '{';
      System.arraycopy(b, 0, opened, 1, b.length);
      return opened;
    }));
  }

  private static byte[] bytes(List<Byte> list) {
    byte[] b = new byte[list.size()];
    for (int i = 0; i < b.length; i++) {
      b[i] = list.get(i);
    }
    return b;
  }
}
