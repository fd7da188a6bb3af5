package io.kvfleet.control.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.dataplane.LandedLate;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.TransferTimedOut;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Bytes after a failure, split: those a source could not prove landed in time (the figure that
 * must be 0) and completions whose sources proved they landed before a failure published earlier.
 */
class TallyTest {
  private static final Instant T0 = Instant.parse("2026-12-04T20:43:51Z");
  private final Tally tally = new Tally();
  private long sequence;

  @Test
  void aCompletionAfterTheSourcesLossIsALateReportOfBytesProvenInTime() {
    add("router", 0, request("t-1"));
    add("coordinator-0", 1200, new PeerLost("prefill-0", 1, ReasonCodes.LEASE_EXPIRED, 0));
    add("coordinator-0", 1200, failed("t-1", ReasonCodes.PEER_LOST));
    add("prefill-0", 2700, new TransferCompleted("t-1", "prefill-0", 16_384, 1, "host", ""));

    assertThat(tally.bytesReportedLate()).isEqualTo(16_384);
    assertThat(tally.bytesMaybeLate()).isZero();
  }

  @Test
  void aCompletionAfterATimeOutIsALateReportOfBytesProvenInTime() {
    add("router", 0, request("t-1"));
    add("coordinator-0", 5100, new TransferTimedOut("t-1", "prefill-0", T0.toEpochMilli() + 5000));
    add("prefill-0", 5300, new TransferCompleted("t-1", "prefill-0", 16_384, 1, "host", ""));

    assertThat(tally.bytesReportedLate()).isEqualTo(16_384);
    assertThat(tally.bytesMaybeLate()).isZero();
  }

  @Test
  void landedAfterLeaseBytesCountWhereverTheyFallInTheLog() {
    add("router", 0, request("t-1"));
    add("prefill-0", 300, LandedLate.failed(request("t-1"), 16_384, "range 0+16384", 0));

    assertThat(tally.bytesMaybeLate()).isEqualTo(16_384);
    assertThat(tally.bytesReportedLate()).isZero();
    assertThat(tally.endedHow()).containsEntry("failed " + ReasonCodes.LANDED_AFTER_LEASE, 1L);
  }

  @Test
  void aCompletionAfterTheDestinationWasGoneIsNotCoveredByTheSourcesProof() {
    add("router", 0, request("t-1"));
    add("router", 0, request("t-2"));
    add("coordinator-0", 1200, new PeerLost("decode-0", 1, ReasonCodes.LEASE_EXPIRED, 0));
    add("coordinator-0", 1200, failed("t-1", ReasonCodes.PEER_LOST));
    add("decode-0", 1500, new PeerJoined("decode-0", 2, "h", "", List.of()));
    add("coordinator-0", 3500, failed("t-2", ReasonCodes.PEER_LOST)); // its destination was replaced
    add("prefill-0", 3600, new TransferCompleted("t-1", "prefill-0", 16_384, 1, "host", ""));
    add("prefill-0", 3700, new TransferCompleted("t-2", "prefill-0", 4096, 1, "host", ""));

    assertThat(tally.bytesMaybeLate()).isEqualTo(16_384 + 4096);
    assertThat(tally.bytesReportedLate()).isZero();
  }

  @Test
  void aCompletionInTheSameMillisecondAfterTheDestinationWasGoneIsNotCoveredByTheSourcesProof() {
    add("router", 0, request("t-1"));
    add("coordinator-0", 1200, new PeerLost("decode-0", 1, ReasonCodes.LEASE_EXPIRED, 0));
    add("coordinator-0", 1200, failed("t-1", ReasonCodes.PEER_LOST));
    add("prefill-0", 1200, new TransferCompleted("t-1", "prefill-0", 16_384, 1, "host", ""));

    assertThat(tally.bytesMaybeLate()).isEqualTo(16_384);
  }

  @Test
  void aCompletionAfterTheDestinationWasGoneStampedEarlierBySlowerClockIsNotCoveredByTheSourcesProof() {
    add("router", 0, request("t-1"));
    add("coordinator-0", 1200, new PeerLost("decode-0", 1, ReasonCodes.LEASE_EXPIRED, 0));
    add("coordinator-0", 1200, failed("t-1", ReasonCodes.PEER_LOST));
    // The source's wall clock runs 5 ms behind the coordinator's: its completion, read after the failure, says 1195.
    add("prefill-0", 1195, new TransferCompleted("t-1", "prefill-0", 16_384, 1, "host", ""));

    assertThat(tally.bytesMaybeLate()).isEqualTo(16_384);
  }

  @Test
  void whatASourceSentBeforeItStoppedOnTheFleetsFailureCountsAsACompletionsBytesWould() {
    add("router", 0, request("t-1"));
    add("router", 0, request("t-2"));
    add("coordinator-0", 1200, new PeerLost("decode-0", 1, ReasonCodes.LEASE_EXPIRED, 0));
    add("coordinator-0", 1200, failed("t-1", ReasonCodes.PEER_LOST)); // the destination: the source's proof says nothing
    add("prefill-0", 1300, LandedLate.endedByFleet(request("t-1"), 4096, "transfer.failed PEER_LOST", "before range 1"));
    add("coordinator-0", 1400, new TransferTimedOut("t-2", "prefill-0", T0.toEpochMilli() + 1400)); // proven: the deadline
    add("prefill-0", 1500, LandedLate.endedByFleet(request("t-2"), 8192, "transfer.timed_out", "before range 2"));

    assertThat(tally.bytesMaybeLate()).isEqualTo(4096);
    assertThat(tally.bytesReportedLate()).isEqualTo(8192);
  }

  @Test
  void aCompletionBeforeTheFailureCountsInNeither() {
    add("router", 0, request("t-1"));
    add("prefill-0", 100, new TransferCompleted("t-1", "prefill-0", 16_384, 1, "host", ""));
    add("coordinator-0", 1200, failed("t-1", ReasonCodes.PEER_LOST));

    assertThat(tally.bytesMaybeLate()).isZero();
    assertThat(tally.bytesReportedLate()).isZero();
  }

  @Test
  void aScenarioHoldsWithLateReportsAndBreaksOnBytesThatMayHaveLandedLate() {
    assertThat(figures(0, 16_384).held()).isTrue();
    assertThat(figures(0, 16_384).describe())
        .contains("bytes that may have landed after a failure 0", "proven landed before it: 16384");
    assertThat(figures(4096, 0).held()).isFalse();
  }

  private static Figures figures(long maybeLate, long reportedLate) {
    return new Figures("agent SIGSTOP x1", 10, 10, 0, 10, 0, 0, 1, 0, 0, 0, 0, maybeLate, reportedLate, 0,
        List.of(Duration.ofMillis(1200)), 0, 0, List.of(Duration.ofMillis(300)), List.of(), 0, 9, 1, true,
        new TreeMap<>());
  }

  private static TransferRequested request(String id) {
    return new TransferRequested(id, "prefill-0", 1, "kv-0", "decode-0", 1, "kv-0", TransferOp.WRITE,
        List.of(new ByteRange(0, 0, 16_384)), T0.toEpochMilli() + 5000, false);
  }

  private static TransferFailed failed(String id, String reason) {
    return new TransferFailed(id, "prefill-0", reason, 0, "");
  }

  private void add(String producer, long atMillis, FleetEvent event) {
    tally.add(new Envelope("e-" + ++sequence, producer, 1, sequence, T0.plusMillis(atMillis), "", event));
  }
}
