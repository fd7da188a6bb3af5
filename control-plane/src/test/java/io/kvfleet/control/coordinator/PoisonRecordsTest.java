package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.OpaqueEvent;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.Decoded;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which records the coordinator cannot fold as it should, and why. */
class PoisonRecordsTest {
  private static final Instant T = Instant.parse("2026-12-01T00:00:00Z");

  @Test
  void aTombstoneAMalformedRecordAnUnreadableTypeAndAWrongTopicArePoison() {
    var joined = new Decoded.Event(Envelope.of("n", 1, 1, T, "", new PeerJoined("n", 1, "h", "", List.of())));
    var opaque = new Decoded.Event(Envelope.of("n", 1, 2, T, "", new OpaqueEvent("n", "", "io.kvfleet.x", 1, "{}")));

    assertThat(PoisonRecords.why(Topics.TRANSFERS, null)).contains("tombstone (null value)");
    assertThat(PoisonRecords.why(Topics.NODES, new Decoded.Malformed("not JSON: x", new byte[] {1})))
        .contains("malformed: not JSON: x");
    assertThat(PoisonRecords.why(Topics.NODES, opaque)).get().asString().startsWith("unreadable type io.kvfleet.x");
    assertThat(PoisonRecords.why(Topics.TRANSFERS, joined)).get().asString()
        .isEqualTo("wrong topic: io.kvfleet.peer.joined belongs on kvfleet.nodes");
    assertThat(PoisonRecords.why(Topics.NODES, joined)).as("an event where it belongs").isEmpty();
  }

  @Test
  void countsEveryPoisonRecordWhetherOrNotItsPartitionIsOwned() {
    var poison = new PoisonRecords(null, new java.util.HashSet<>());
    poison.add(Topics.TRANSFERS, 0, 7, "k", null, "tombstone (null value)");
    poison.flush(Ownership.group(3)); // owns nothing yet: kept for the owner
    poison.add(Topics.NODES, 1, 8, "k", new Decoded.Malformed("x", new byte[0]), "malformed: x");

    assertThat(poison.count()).isEqualTo(2);
  }
}
