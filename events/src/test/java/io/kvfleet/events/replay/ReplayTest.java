package io.kvfleet.events.replay;

import static io.kvfleet.events.replay.Script.joined;
import static io.kvfleet.events.replay.Script.registered;
import static io.kvfleet.events.replay.Script.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.snapshot.StateHash;
import io.kvfleet.events.state.FleetState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplayTest {

  private static Script fleet() {
    return new Script()
        .node("p0", 1, joined("p0", 1)).node("p0", 1, registered("p0", 1, "kv-0"))
        .node("d0", 1, joined("d0", 1)).node("d0", 1, registered("d0", 1, "kv-0"))
        .after(Duration.ofSeconds(1)).node("d0", 1, new PeerHeartbeat("d0", 1, 3_000))
        .event("router", 1, request("t1", "p0", 1, "d0", 1))
        .event("coordinator", 1, new TransferDispatched("t1", "p0", "coordinator"));
  }

  @Test
  void foldsEveryEventWithTheCoordinatorsFoldAndReachesItsHash() {
    var script = fleet();
    List<io.kvfleet.events.Envelope> envelopes = script.records().stream()
        .map(r -> ((Decoded.Event) r.value()).envelope()).toList();

    ReplayResult result = script.replay(ReplayOptions.defaults());

    assertThat(StateHash.of(result.state())).isEqualTo(StateHash.of(FleetState.fold(envelopes)));
    assertThat(result.records()).isEqualTo(envelopes.size());
    assertThat(result.stoppedEarly()).isFalse();
    assertThat(result.report().hash()).isEqualTo(StateHash.of(result.state()));
  }

  @Test
  void stopsAtTheRecordCountGivenAndReportsWhereItStopped() {
    var script = fleet();

    ReplayResult result = script.replay(ReplayOptions.defaults().until(new Until.AfterCount(3)));

    assertThat(result.records()).isEqualTo(3);
    assertThat(result.stoppedEarly()).isTrue();
    assertThat(result.lastPosition()).contains(script.records().get(2).position());
    assertThat(result.state().peers()).extracting(p -> p.nodeId()).containsExactly("d0", "p0");
  }

  @Test
  void stopsBeforeTheFirstRecordAfterTheTimeGiven() {
    var script = fleet();

    ReplayResult result = script.replay(ReplayOptions.defaults().until(Until.parse("2025-06-01T10:40:00.500Z")));

    assertThat(result.records()).isEqualTo(4);
    assertThat(result.state().counts().liveRegions()).isEqualTo(2);
    assertThat(result.state().transfers()).isEmpty();
  }

  @Test
  void sendsEveryFoldedRecordToTheTimelineWithItsTimeSinceTheFirst() {
    var entries = new ArrayList<TimelineEntry>();

    fleet().replay(ReplayOptions.defaults().timeline(entries::add));

    assertThat(entries).hasSize(7);
    assertThat(entries.getFirst().sinceStart()).isEqualTo(Duration.ZERO);
    assertThat(entries.get(4).sinceStart()).isEqualTo(Duration.ofMillis(1_004));
    assertThat(entries).extracting(TimelineEntry::index).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L);
  }

  @Test
  void goesOnFromAStartStateAsIfItHadFoldedTheRecordsBeforeIt() {
    var records = fleet().records();
    var head = new Replay(ReplayOptions.defaults());
    records.subList(0, 4).forEach(head::accept);

    var tail = new Replay(head.state(), ReplayOptions.defaults());
    records.subList(4, records.size()).forEach(tail::accept);

    assertThat(StateHash.of(tail.finish().state())).isEqualTo(StateHash.of(fleet().replay(ReplayOptions.defaults()).state()));
  }
}
