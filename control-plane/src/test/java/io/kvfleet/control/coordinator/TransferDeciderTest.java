package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.state.FleetState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The coordinator's validation: each rejection reason, duplicates, and the dispatch it builds. */
class TransferDeciderTest {
  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
  private static final long PAGE = 4096;
  private final TransferDecider decider = new TransferDecider("coordinator-t");
  private final List<Envelope> log = new ArrayList<>();

  private TransferDeciderTest given(FleetEvent... events) {
    for (FleetEvent e : events) {
      log.add(new Envelope("e" + log.size(), "test", 1, log.size() + 1, NOW.minusSeconds(5), "", e));
    }
    return this;
  }

  private TransferDeciderTest twoLiveNodes() {
    return given(joined("prefill-0", 3, "ucx"), joined("decode-0", 4, "ucx"),
        new PeerHeartbeat("prefill-0", 3, 60_000), new PeerHeartbeat("decode-0", 4, 60_000),
        registered("prefill-0", 3, "kv", PAGE, "ucx"), registered("decode-0", 4, "kv", PAGE, "ucx"));
  }

  private Decision decide(TransferRequested request) {
    return decider.decide(FleetState.fold(log), request, NOW);
  }

  @Test
  void dispatchesAValidRequestWithTheDestinationsKeysAndAddress() {
    var decision = twoLiveNodes().decide(request("t1", 3, 4, range(0, PAGE, PAGE)));
    assertThat(decision).isInstanceOfSatisfying(Decision.Dispatch.class, d -> {
      assertThat(d.event().coordinatorId()).isEqualTo("coordinator-t");
      assertThat(d.order().destinationKeys()).containsEntry("ucx", "rkey-decode-0-kv");
      assertThat(d.order().destinationTransport()).isEqualTo("addr-decode-0");
      assertThat(d.order().destination().length()).isEqualTo(64 * PAGE);
    });
  }

  @Test
  void waitsForNodeEventsBeforeRejectingATransferFromAnUnknownPeer() {
    assertWaits(given().decide(request("t1", 3, 4, range(0, 0, PAGE))), ReasonCodes.UNKNOWN_PEER);
  }

  @Test
  void waitsForTheJoinOfAnEpochNewerThanTheStateKnows() {
    assertWaits(twoLiveNodes().decide(request("t1", 3, 5, range(0, 0, PAGE))), ReasonCodes.UNKNOWN_PEER);
  }

  @Test
  void rejectsTransferToStaleEpoch() {
    assertRejected(twoLiveNodes().decide(request("t1", 3, 2, range(0, 0, PAGE))), ReasonCodes.STALE_EPOCH);
  }

  @Test
  void rejectsTransferToLostPeer() {
    twoLiveNodes().given(new PeerLost("decode-0", 4, ReasonCodes.LEASE_EXPIRED, 0));
    assertRejected(decide(request("t1", 3, 4, range(0, 0, PAGE))), ReasonCodes.PEER_NOT_ALIVE);
  }

  @Test
  void rejectsATransferToAPeerItDeclaredLostBeforeItsStateReadTheLoss() {
    var deciding = new TransferDecider("coordinator-t", (node, epoch) -> node.equals("decode-0") && epoch == 4);
    twoLiveNodes();

    var decision = deciding.decide(FleetState.fold(log), request("t1", 3, 4, range(0, 0, PAGE)), NOW);

    assertRejected(decision, ReasonCodes.PEER_NOT_ALIVE);
    assertThat(((Decision.Reject) decision).event().detail()).isEqualTo("decode-0 epoch 4 missed its lease and was"
        + " declared lost");
  }

  @Test
  void waitsForTheRegistrationOfAnUnregisteredRegion() {
    var request = new TransferRequested("t1", "prefill-0", 3, "kv", "decode-0", 4, "state-7", TransferOp.WRITE,
        List.of(range(0, 0, PAGE)), NOW.plusSeconds(10).toEpochMilli(), false);
    assertWaits(twoLiveNodes().decide(request), ReasonCodes.UNKNOWN_REGION);
  }

  @Test
  void rejectsTransferToRegionOfAnOlderEpoch() {
    twoLiveNodes().given(joined("decode-0", 5, "ucx"));
    var decision = decide(request("t1", 3, 5, range(0, 0, PAGE)));
    assertRejected(decision, ReasonCodes.UNKNOWN_REGION);
    assertThat(((Decision.Reject) decision).event().detail()).contains("stale");
  }

  @Test
  void rejectsOutOfBoundsRangeNamingTheSideItDoesNotFit() {
    var pastDestination = twoLiveNodes().decide(request("t1", 3, 4, range(0, 64 * PAGE, PAGE)));
    var pastSource = twoLiveNodes().decide(request("t2", 3, 4, range(64 * PAGE, 0, PAGE)));
    assertRejected(pastDestination, ReasonCodes.OUT_OF_BOUNDS);
    assertRejected(pastSource, ReasonCodes.OUT_OF_BOUNDS);
    assertThat(((Decision.Reject) pastDestination).event().detail()).contains("exceeds the destination's length");
    assertThat(((Decision.Reject) pastSource).event().detail()).contains("exceeds the source's length");
  }

  @Test
  void rejectsARangeWhoseEndWouldOverflow() {
    var near = Long.MAX_VALUE - 100;
    assertRejected(twoLiveNodes().decide(request("t1", 3, 4, range(near, 0, PAGE))), ReasonCodes.OUT_OF_BOUNDS);
    assertRejected(twoLiveNodes().decide(request("t2", 3, 4, range(0, near, PAGE))), ReasonCodes.OUT_OF_BOUNDS);
  }

  @Test
  void rejectsRequestWithNoRanges() {
    assertRejected(twoLiveNodes().decide(request("t1", 3, 4)), ReasonCodes.SIZE_MISMATCH);
  }

  @Test
  void rejectsMismatchedPageSizes() {
    twoLiveNodes().given(registered("decode-0", 4, "kv-big", 2 * PAGE, "ucx"));
    var request = new TransferRequested("t1", "prefill-0", 3, "kv", "decode-0", 4, "kv-big", TransferOp.WRITE,
        List.of(range(0, 0, PAGE)), NOW.plusSeconds(10).toEpochMilli(), false);
    assertRejected(decide(request), ReasonCodes.SIZE_MISMATCH);
  }

  @Test
  void rejectsDestinationNotExposedToTheSourcesBackends() {
    given(joined("prefill-0", 3, "host"), joined("decode-0", 4, "ucx"),
        registered("prefill-0", 3, "kv", PAGE, "host"), registered("decode-0", 4, "kv", PAGE, "ucx"));
    assertRejected(decide(request("t1", 3, 4, range(0, 0, PAGE))), ReasonCodes.NOT_EXPOSED);
  }

  @Test
  void rejectsRequestWhoseDeadlinePassed() {
    var late = new TransferRequested("t1", "prefill-0", 3, "kv", "decode-0", 4, "kv", TransferOp.WRITE,
        List.of(range(0, 0, PAGE)), NOW.minusMillis(1).toEpochMilli(), false);
    assertRejected(twoLiveNodes().decide(late), ReasonCodes.DEADLINE_PASSED);
  }

  @Test
  void answersADuplicateRequestOnlyOnce() {
    var first = request("t1", 3, 4, range(0, 0, PAGE));
    twoLiveNodes().given(first, new TransferCompleted("t1", "prefill-0", PAGE, 1_000, "ucx/tcp", ""));
    assertThat(decide(first)).isInstanceOf(Decision.AlreadyAnswered.class);
  }

  private static void assertWaits(Decision decision, String reasonIfStill) {
    assertThat(decision).isInstanceOfSatisfying(Decision.Wait.class, w -> {
      assertThat(w.ifStill().reason()).isEqualTo(reasonIfStill);
      assertThat(w.ifStill().detail()).isNotBlank();
    });
  }

  private static void assertRejected(Decision decision, String reason) {
    assertThat(decision).isInstanceOfSatisfying(Decision.Reject.class, r -> {
      assertThat(r.event().reason()).isEqualTo(reason);
      assertThat(r.event().detail()).isNotBlank();
    });
  }

  static PeerJoined joined(String node, long epoch, String backend) {
    var capability = new BackendCapability(backend, true, "1", List.of(MemoryType.DRAM), List.of("tcp"), "");
    return new PeerJoined(node, epoch, "127.0.0.1", "addr-" + node, List.of(capability));
  }

  static RegionRegistered registered(String node, long epoch, String region, long page, String backend) {
    var spec = new RegionSpec(region, RegionKind.KV, MemoryType.DRAM, -1, 0x1000, 64 * PAGE, page, "kv_data", 0);
    return new RegionRegistered(node, epoch, spec, backend, "rkey-" + node + "-" + region);
  }

  static ByteRange range(long from, long to, long length) {
    return new ByteRange(from, to, length);
  }

  static TransferRequested request(String id, long sourceEpoch, long destinationEpoch, ByteRange... ranges) {
    return new TransferRequested(id, "prefill-0", sourceEpoch, "kv", "decode-0", destinationEpoch, "kv",
        TransferOp.WRITE, List.of(ranges), NOW.plusSeconds(10).toEpochMilli(), false);
  }
}
