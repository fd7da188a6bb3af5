package io.kvfleet.control.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TerminalTest {

  @Test
  void escapesEveryControlCharacterButNewlineAndTab() {
    assertThat(printed("a\u001b[2Kb\rc\u0007d\u007fe\u0000f\n\tg")).isEqualTo("a\\x1b[2Kb\\x0dc\\x07d\\x7fe\\x00f\n\tg");
  }

  @Test
  void escapesC1ControlsAndKeepsEveryOtherCharacter() {
    assertThat(printed("x\u009b31my\u0085")).isEqualTo("x\\x9b31my\\x85");
    assertThat(printed("é Â\u00a0ü → 日本")).isEqualTo("é Â\u00a0ü → 日本");
  }

  @Test
  void aCharacterSplitAcrossWritesIsJudgedWhole() throws Exception {
    var bytes = new ByteArrayOutputStream();
    try (var escaping = new Terminal.Escaping(bytes)) {
      escaping.write(new byte[] {'a', (byte) 0xc2}, 0, 2);
      escaping.write(new byte[] {(byte) 0x9b, (byte) 0xc2}, 0, 2);
      escaping.write(new byte[] {(byte) 0xa0, 'b'}, 0, 2);
    }
    assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo("a\\x9b\u00a0b");
  }

  private static String printed(String text) {
    var bytes = new ByteArrayOutputStream();
    try (var out = Terminal.escaping(bytes)) {
      out.print(text);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
