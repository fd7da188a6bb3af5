package io.kvfleet.control.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.replay.Cli;
import org.junit.jupiter.api.Test;

class PlainHelpTest {

  /** On a terminal picocli coloured its help, and the escaping of every command's output printed the colours as text. */
  @Test
  void helpIsPlainTextEvenWhereColoursWouldBeOn() {
    String before = System.getProperty("picocli.ansi");
    System.setProperty("picocli.ansi", "true");
    try {
      var run = Cli.run("keys", "--help");
      assertThat(run.out()).contains("Usage:").doesNotContain("\\x1b", "\u001b");
      var wrong = Cli.run("keys", "--no-such-option");
      assertThat(wrong.err()).contains("no-such-option").doesNotContain("\\x1b", "\u001b");
    } finally {
      if (before == null) {
        System.clearProperty("picocli.ansi");
      } else {
        System.setProperty("picocli.ansi", before);
      }
    }
  }
}
