package io.kvfleet.control.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.replay.ExplainTarget;
import io.kvfleet.events.replay.LogPosition;
import io.kvfleet.events.replay.LogRecord;
import io.kvfleet.events.replay.Replay;
import io.kvfleet.events.replay.ReplayOptions;
import io.kvfleet.events.replay.ReplayResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplayTextTest {
  private static final String FORGED = "\nPeers (0, 0 alive):\u2028  decode-9 epoch 1 ALIVE";

  /** A line break in a peer's host started a forged line of the state report: it shows as an escape now. */
  @Test
  void aFieldsLineBreakDoesNotStartALineOfTheState() {
    var result = replay(new PeerJoined("node-a", 1, "host-a" + FORGED, "", List.of()));

    String text = print(out -> ReplayText.state(result.report(), out));

    assertThat(text.lines()).noneMatch(l -> l.startsWith("Peers (0") || l.contains("\u2028"))
        .anyMatch(l -> l.contains("host-a\\u000aPeers (0, 0 alive):\\u2028  decode-9"));
  }

  /** The same for an explanation's steps. */
  @Test
  void aFieldsLineBreakDoesNotStartALineOfAnExplanation() {
    var result = replay(new PeerJoined("node-a", 1, "host-a", "", List.of()),
        new PeerLost("node-a", 1, "gone" + FORGED, 0));

    String text = print(out -> ReplayText.explanation(result.explain(new ExplainTarget.Node("node-a")), out));

    assertThat(text.lines()).noneMatch(l -> l.startsWith("Peers (0")).anyMatch(l -> l.contains("gone\\u000aPeers"));
  }

  private static ReplayResult replay(FleetEvent... events) {
    var replay = new Replay(ReplayOptions.defaults().explaining(new ExplainTarget.Node("node-a")));
    long offset = 0;
    for (var event : events) {
      var at = Instant.EPOCH.plusSeconds(offset + 1);
      replay.accept(new LogRecord(new LogPosition("kvfleet.nodes", 0, offset), at, "node-a",
          new Decoded.Event(Envelope.of("node-a", 1, offset + 1, at, "", event))));
      offset++;
    }
    return replay.finish();
  }

  private static String print(java.util.function.Consumer<PrintStream> writer) {
    var bytes = new ByteArrayOutputStream();
    try (var out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      writer.accept(out);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
