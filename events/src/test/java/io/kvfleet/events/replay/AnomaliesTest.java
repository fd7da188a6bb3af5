package io.kvfleet.events.replay;

import static io.kvfleet.events.replay.Script.joined;
import static io.kvfleet.events.replay.Script.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.OpaqueEvent;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.Topics;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferTimedOut;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EventCodec;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class AnomaliesTest {

  private static AnomalyReport anomalies(Script script) {
    return script.replay(ReplayOptions.defaults()).anomalies();
  }

  private static Envelope beat(String producer, long epoch, long sequence, String node, long nodeEpoch) {
    return new Envelope("b-" + producer + sequence, producer, epoch, sequence, Script.T0, "",
        new PeerHeartbeat(node, nodeEpoch, 1_000));
  }

  @Test
  void listsTheSequenceNumbersMissingFromAProducer() {
    var script = new Script().node("d0", 1, joined("d0", 1))
        .envelope(beat("d0", 1, 4, "d0", 1)).envelope(beat("d0", 1, 5, "d0", 1));

    var report = anomalies(script);

    assertThat(report.of(AnomalyKind.SEQUENCE_GAP)).singleElement()
        .satisfies(a -> assertThat(a.message()).isEqualTo("d0 epoch 1 is missing sequence 2..3 (2 events)"));
  }

  @Test
  void findsARedeliveryAndARegressionWithinAPartition() {
    var script = new Script().node("d0", 1, joined("d0", 1))
        .envelope(beat("d0", 1, 3, "d0", 1)).envelope(beat("d0", 1, 3, "d0", 1)).envelope(beat("d0", 1, 2, "d0", 1));

    var report = anomalies(script);

    assertThat(report.count(AnomalyKind.DUPLICATE)).isEqualTo(1);
    assertThat(report.of(AnomalyKind.SEQUENCE_REGRESSION)).singleElement()
        .satisfies(a -> assertThat(a.message()).contains("wrote sequence 2 after 3"));
  }

  /**
   * One record stamped 50 minutes ahead in d0's partition: replay takes the partition in offset order
   * behind it, so what d0 wrote next is folded after it. Said once, naming the record ahead.
   */
  @Test
  void findsARecordStampedBeforeOneAheadOfItInItsPartition() {
    int partition = Script.partition("d0");
    var script = new Script().node("d0", 1, joined("d0", 1))
        .at("11:30:00").record(Topics.NODES, partition, "junk",
            new EventCodec().decode("not an event".getBytes(StandardCharsets.UTF_8)))
        .at("10:40:01").envelope(beat("d0", 1, 2, "d0", 1))
        .at("10:40:02").envelope(beat("d0", 1, 3, "d0", 1))
        .at("11:30:01").envelope(beat("d0", 1, 4, "d0", 1));

    var report = anomalies(script);

    assertThat(report.of(AnomalyKind.TIMESTAMP_REGRESSION)).singleElement().satisfies(a -> {
      assertThat(a.position()).isEqualTo(new LogPosition(Topics.NODES, partition, 2));
      assertThat(a.message()).startsWith(Topics.NODES + "-" + partition + "@2 is stamped 2025-06-01T10:40:01Z, PT49M59S"
          + " before " + Topics.NODES + "-" + partition + "@1 ahead of it, stamped 2025-06-01T11:30:00Z");
    });
    assertThat(anomalies(new Script().node("d0", 1, joined("d0", 1)).at("10:40:01")
        .envelope(beat("d0", 1, 2, "d0", 1)).at("10:40:00.001").envelope(beat("d0", 1, 3, "d0", 1)))
        .count(AnomalyKind.TIMESTAMP_REGRESSION)).as("a second back: writers' jitter, not an anomaly").isZero();
    assertThat(Script.partition("p1")).isNotEqualTo(partition);
    assertThat(anomalies(new Script().node("d0", 1, joined("d0", 1)).envelope(beat("d0", 1, 2, "d0", 1))
        .at("10:39:00").node("p1", 1, joined("p1", 1))).count(AnomalyKind.TIMESTAMP_REGRESSION))
        .as("stamps that go back across partitions, not within one").isZero();
  }

  @Test
  void listsAnOutcomeThatCameAfterTheCoordinatorHadEndedTheTransfer() {
    var script = new Script().node("p0", 1, joined("p0", 1)).node("d0", 1, joined("d0", 1))
        .event("router", 1, request("t1", "p0", 1, "d0", 1))
        .event("coordinator-0", 1, new TransferDispatched("t1", "p0", "coordinator-0"))
        .event("coordinator-0", 1, new TransferTimedOut("t1", "p0", 0))
        .event("p0", 1, new TransferCompleted("t1", "p0", 16_384, 1_000, "ucx/tcp", ""));

    var report = anomalies(script);

    assertThat(report.of(AnomalyKind.LATE_OUTCOME)).singleElement().satisfies(a -> {
      assertThat(a.subject()).isEqualTo("t1");
      assertThat(a.message()).startsWith("io.kvfleet.transfer.completed from p0 came after coordinator-0 had ended"
          + " transfer t1 as TIMED_OUT DEADLINE_PASSED at ").endsWith("; the first end is kept");
    });
    assertThat(report.count(AnomalyKind.VIOLATION)).isZero();
  }

  @Test
  void findsATransferThatNeverEndedAndSaysItsDeadlinePassed() {
    var script = new Script().node("p0", 1, joined("p0", 1))
        .event("router", 1, request("t1", "p0", 1, "d0", 1))
        .after(java.time.Duration.ofHours(2)).node("p0", 1, new PeerHeartbeat("p0", 1, 1_000));

    var report = anomalies(script);

    assertThat(report.of(AnomalyKind.UNTERMINATED_TRANSFER)).singleElement().satisfies(a -> {
      assertThat(a.subject()).isEqualTo("t1");
      assertThat(a.message()).contains("never ended").contains("deadline").contains("passed");
    });
  }

  /**
   * At an until, a transfer not ended yet is in flight there (the state says so), not an anomaly (a
   * new user's run), unless its deadline had long passed by then.
   */
  @Test
  void aReplayStoppedAtItsUntilListsNoTransferInFlightThenAsNeverEnded() {
    var script = new Script().node("p0", 1, joined("p0", 1))
        .event("router", 1, request("t1", "p0", 1, "d0", 1))
        .after(java.time.Duration.ofSeconds(1)).event("coordinator-0", 1, new TransferTimedOut("t1", "p0", 0));

    var atUntil = script.replay(ReplayOptions.defaults().until(new Until.AfterCount(2)));

    assertThat(atUntil.stoppedEarly()).isTrue();
    assertThat(atUntil.anomalies().count(AnomalyKind.UNTERMINATED_TRANSFER)).isZero();
    assertThat(atUntil.state().inFlightTransfers()).extracting(t -> t.transferId()).containsExactly("t1");

    var longPastItsDeadline = new Script().node("p0", 1, joined("p0", 1))
        .event("router", 1, request("t1", "p0", 1, "d0", 1)) // its deadline is an hour on
        .after(java.time.Duration.ofHours(2)).node("p0", 1, new PeerHeartbeat("p0", 1, 1_000))
        .event("coordinator-0", 1, new TransferTimedOut("t1", "p0", 0));
    assertThat(longPastItsDeadline.replay(ReplayOptions.defaults().until(new Until.AfterCount(3))).anomalies()
        .of(AnomalyKind.UNTERMINATED_TRANSFER)).singleElement()
        .satisfies(a -> assertThat(a.message()).contains("not ended by the until though its deadline"));
  }

  @Test
  void findsEventsFromAnIncarnationOlderThanTheNodesCurrentOne() {
    var script = new Script().node("d0", 3, joined("d0", 3)).node("d0", 4, joined("d0", 4))
        .node("d0", 3, new PeerHeartbeat("d0", 3, 1_000));

    var report = anomalies(script);

    assertThat(report.of(AnomalyKind.STALE_EPOCH)).singleElement()
        .satisfies(a -> assertThat(a.message()).contains("d0 epoch 3 after it rejoined at epoch 4"));
  }

  @Test
  void findsMalformedUnreadableMisroutedAndMisattributedRecords() {
    var opaque = new OpaqueEvent("d0", "d0", "io.kvfleet.peer.teleported", 1, "{}");
    var heartbeat = new Envelope("h", "d0", 1, 3, Script.T0, "", new PeerHeartbeat("d0", 1, 1_000));
    var script = new Script().node("d0", 1, joined("d0", 1))
        .record(Topics.NODES, 0, "d0", new Decoded.Malformed("missing attribute 'id'", new byte[] {'{', '}'}))
        .event("d0", 1, opaque)
        .record(Topics.TRANSFERS, 0, "d0", new Decoded.Event(heartbeat))
        .event("impostor", 9, new PeerHeartbeat("d0", 1, 1_000));

    var report = anomalies(script);

    assertThat(report.of(AnomalyKind.MALFORMED)).singleElement()
        .satisfies(a -> assertThat(a.message()).isEqualTo("missing attribute 'id'"));
    assertThat(report.of(AnomalyKind.UNREADABLE_TYPE)).singleElement()
        .satisfies(a -> assertThat(a.message()).contains("io.kvfleet.peer.teleported"));
    assertThat(report.of(AnomalyKind.MISROUTED)).singleElement()
        .satisfies(a -> assertThat(a.message()).contains("belongs on kvfleet.nodes").contains("was on kvfleet.transfers"));
    assertThat(report.of(AnomalyKind.PRODUCER_MISMATCH)).singleElement()
        .satisfies(a -> assertThat(a.message()).contains("written by impostor epoch 9"));
  }

  @Test
  void reportsTheFoldsInvariantViolationsAtTheRecordThatBrokeThem() {
    var script = new Script().event("coordinator", 1, new TransferDispatched("t9", "p0", "coordinator"));

    var report = anomalies(script);

    assertThat(report.of(AnomalyKind.VIOLATION)).singleElement().satisfies(a -> {
      assertThat(a.message()).isEqualTo("transfer t9 dispatched before it was requested");
      assertThat(a.position()).isEqualTo(script.records().getFirst().position());
    });
  }

  @Test
  void aCleanLogHasNoAnomalies() {
    var script = new Script().node("d0", 1, joined("d0", 1)).node("d0", 1, new PeerHeartbeat("d0", 1, 1_000));

    assertThat(anomalies(script).total()).isZero();
  }
}
