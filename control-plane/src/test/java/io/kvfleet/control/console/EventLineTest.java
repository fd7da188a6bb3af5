package io.kvfleet.control.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.PeerLost;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class EventLineTest {

  /** A bidi override, a zero-width space and a line separator reordered or hid what a reader saw. */
  @Test
  void aWritersBidiZeroWidthAndSeparatorMarksAreShownAsEscapes() {
    var lost = new PeerLost("node-a", 1, "A\u202eB\u200bC\u2028D\nE é", 0);

    String line = EventLine.format(Envelope.of("coordinator-0", 1, 7, Instant.EPOCH, "", lost));

    assertThat(line).contains("A\\u202eB\\u200bC\\u2028D\\u000aE é").doesNotContain("\u202e", "\u200b", "\u2028", "\n");
  }
}
