package io.kvfleet.control.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LinesTest {
  private static int firstNewline(byte[] b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (b[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  @Test
  void findsTheFirstNewlineAtEveryPlaceOfAWordBesideEveryByteValue() {
    for (int length = 0; length <= 24; length++) {
      for (int other = 0; other < 256; other++) {
        byte[] b = new byte[length];
        Arrays.fill(b, (byte) other);
        for (int at = -1; at < length; at++) {
          if (at >= 0) {
            b[at] = '\n';
          }
          for (int from = 0; from <= Math.min(length, 9); from++) {
            assertThat(Lines.newline(b, from, length)).as("length %d, byte %d, newline at %d, from %d",
                length, other, at, from).isEqualTo(firstNewline(b, from, length));
          }
          if (at >= 0) {
            b[at] = (byte) other;
          }
        }
      }
    }
  }

  @Test
  void splitsRandomTextWithNewlinesAnywhereAsASimpleScanDoes() throws Exception {
    var random = new Random(19);
    for (int round = 0; round < 200; round++) {
      byte[] text = new byte[random.nextInt(300_000)];
      for (int i = 0; i < text.length; i++) {
        text[i] = random.nextInt(40) == 0 ? (byte) '\n' : (byte) random.nextInt(256);
      }
      var expected = new ArrayList<String>();
      int start = 0;
      for (int i = firstNewline(text, 0, text.length); i >= 0; i = firstNewline(text, start, text.length)) {
        expected.add(HexFormat.of().formatHex(text, start, i));
        start = i + 1;
      }
      if (start < text.length) {
        expected.add(HexFormat.of().formatHex(text, start, text.length));
      }
      var lines = new Lines(new ByteArrayInputStream(text));
      var actual = new ArrayList<String>();
      for (var l = lines.next(); l != null; l = lines.next()) {
        actual.add(HexFormat.of().formatHex(l.bytes(), l.offset(), l.offset() + l.length()));
      }
      assertThat(actual).isEqualTo(expected);
    }
  }
}
