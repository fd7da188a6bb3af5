package io.kvfleet.events.replay;

import static io.kvfleet.events.replay.Script.joined;
import static io.kvfleet.events.replay.Script.registered;
import static io.kvfleet.events.replay.Script.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RequestPart;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.state.PeerStatus;
import io.kvfleet.events.state.TransferStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

class StateReportTest {

  @Test
  void showsPeersRegionsByNodeAndKindAndTransfersInFlight() {
    var script = new Script().node("p0", 1, joined("p0", 1)).node("p0", 1, registered("p0", 1, "kv-0"))
        .node("d0", 2, joined("d0", 2)).event("router", 1, request("t1", "p0", 1, "d0", 2));

    var report = script.replay(ReplayOptions.defaults()).report();

    assertThat(report.peers()).extracting(StateReport.Peer::nodeId, StateReport.Peer::epoch, StateReport.Peer::status)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("d0", 2L, PeerStatus.ALIVE),
            org.assertj.core.groups.Tuple.tuple("p0", 1L, PeerStatus.ALIVE));
    assertThat(report.regions().get("p0").get(RegionKind.KV)).singleElement()
        .satisfies(r -> assertThat(r.registeredWith()).containsExactly("host"));
    assertThat(report.inFlight()).singleElement().satisfies(t -> {
      assertThat(t.transferId()).isEqualTo("t1");
      assertThat(t.status()).isEqualTo(TransferStatus.REQUESTED);
      assertThat(t.destination()).isEqualTo("d0/kv-0@2");
      assertThat(t.parts()).isEmpty();
    });
    assertThat(report.position()).isEqualTo(script.records().getLast().position());
  }

  /** After a node's loss, 66 rejections read only as "66 rejected": what they were is counted by reason. */
  @Test
  void countsTheTransfersThatDidNotCompleteByOutcomeAndReason() {
    var script = new Script().node("p0", 1, joined("p0", 1)).node("d0", 2, joined("d0", 2))
        .event("router", 1, request("t1", "p0", 1, "d0", 2)).event("router", 1, request("t2", "p0", 1, "d0", 2))
        .event("router", 1, request("t3", "p0", 1, "d0", 2))
        .event("coordinator", 1, new io.kvfleet.events.TransferRejected("t1", "p0", "PEER_NOT_ALIVE", "d0 lost"))
        .event("coordinator", 1, new io.kvfleet.events.TransferRejected("t2", "p0", "PEER_NOT_ALIVE", "d0 lost"))
        .event("coordinator", 1, new io.kvfleet.events.TransferTimedOut("t3", "p0", Script.T0.toEpochMilli()));

    var report = script.replay(ReplayOptions.defaults()).report();

    assertThat(report.endedByReason()).containsExactly(
        java.util.Map.entry("rejected PEER_NOT_ALIVE", 2L), java.util.Map.entry("timed_out DEADLINE_PASSED", 1L));
  }

  /** A request transfer names no region nor ranges: its in-flight line read "p0/@1 -> d0/@2, 0 B" (a new user's run). */
  @Test
  void showsARequestTransferInFlightByItsNodesAndParts() {
    var script = new Script().node("p0", 1, joined("p0", 1)).node("d0", 2, joined("d0", 2))
        .event("router", 1, TransferRequested.ofRequest("r-1", "req-1", "p0", 1, "d0", 2,
            List.of(new RequestPart("kv", List.of(0), List.of(1)), new RequestPart("ssm", List.of(0), List.of(0))),
            List.of(), Script.T0.plusSeconds(60).toEpochMilli(), true));

    assertThat(script.replay(ReplayOptions.defaults()).report().inFlight()).singleElement().satisfies(t -> {
      assertThat(t.source()).isEqualTo("p0@1");
      assertThat(t.destination()).isEqualTo("d0@2");
      assertThat(t.parts()).containsExactly("kv", "ssm");
    });
  }
}
