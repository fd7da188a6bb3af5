package io.kvfleet.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.apache.logging.log4j.message.SimpleMessage;
import org.junit.jupiter.api.Test;

/** The log file's pattern, as {@code log4j2.xml} gives it: one message, one line, whatever a record's strings hold. */
class LogPatternTest {

  @Test
  void aLineBreakInAMessageDoesNotStartALineOfItsOwnNorAControlCharacterReachTheReader() throws Exception {
    var layout = layout();
    var event = Log4jLogEvent.newBuilder().setLevel(Level.WARN).setLoggerName("io.kvfleet.control.coordinator.X")
        .setMessage(new SimpleMessage("cannot fold record: unreadable type a\n2026-12-07 ERROR [main] forged\r"
            + " \u001b]0;PWN\u0007\u001b[1A\u0085\u2028\u202eé"))
        .build();

    String line = layout.toSerializable(event);

    assertThat(line.lines()).hasSize(1);
    assertThat(line).contains("unreadable type a\\n2026-12-07 ERROR [main] forged\\r ?]0;PWN??[1A???é");
  }

  /** An exception's message quoting a record wrote a forged line after the event's own: the trace stays on it. */
  @Test
  void aStackTraceStaysOnItsEventsLine() throws Exception {
    var layout = layout();
    var event = Log4jLogEvent.newBuilder().setLevel(Level.WARN).setLoggerName("io.kvfleet.control.coordinator.X")
        .setMessage(new SimpleMessage("cannot fold record"))
        .setThrown(new IllegalArgumentException("bad node id a\n2026-12-07 ERROR [main] forged \u001b[2K"))
        .build();

    String line = layout.toSerializable(event);

    assertThat(line.lines()).hasSize(1);
    assertThat(line).contains("cannot fold record", "bad node id a\\n2026-12-07 ERROR [main] forged ?[2K",
        "\\n\tat io.kvfleet.control.LogPatternTest.aStackTraceStaysOnItsEventsLine");
  }

  /** The file's layout: its pattern and whether log4j adds a trace of its own after it. */
  private static PatternLayout layout() throws Exception {
    try (InputStream in = LogPatternTest.class.getResourceAsStream("/log4j2.xml")) {
      var matcher = Pattern.compile("<PatternLayout pattern=\"([^\"]+)\"\\s+alwaysWriteExceptions=\"(\\w+)\"")
          .matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      assertThat(matcher.find()).as("log4j2.xml has a pattern").isTrue();
      return PatternLayout.newBuilder().withPattern(matcher.group(1))
          .withAlwaysWriteExceptions(Boolean.parseBoolean(matcher.group(2))).build();
    }
  }
}
