package io.kvfleet.events.replay;

import static io.kvfleet.events.replay.Script.joined;
import static io.kvfleet.events.replay.Script.registered;
import static io.kvfleet.events.replay.Script.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.RegistrationFailed;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.TransferTimedOut;
import io.kvfleet.events.codec.Decoded;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExplainTest {

  /** decode-0 epoch 3 is lost at 10:42:07 and rejoins at epoch 4; a router still names epoch 3. */
  private static Script staleDestination() {
    return new Script()
        .at("10:40:00").node("prefill-0", 5, joined("prefill-0", 5)).node("prefill-0", 5, registered("prefill-0", 5, "kv-0"))
        .node("decode-0", 3, joined("decode-0", 3)).node("decode-0", 3, registered("decode-0", 3, "kv-0"))
        .event("router-0", 1, request("t-ok", "prefill-0", 5, "decode-0", 3))
        .event("coordinator-0", 1, new TransferDispatched("t-ok", "prefill-0", "coordinator-0"))
        .event("prefill-0", 5, new TransferCompleted("t-ok", "prefill-0", 16_384, 120_000, "host/memcpy", "ab12"))
        .event("router-0", 1, request("t-lost", "prefill-0", 5, "decode-0", 3))
        .event("coordinator-0", 1, new TransferDispatched("t-lost", "prefill-0", "coordinator-0"))
        .at("10:42:04.500").node("decode-0", 3, new PeerHeartbeat("decode-0", 3, 2_000))
        .at("10:42:07").event("coordinator-0", 1, new PeerLost("decode-0", 3, ReasonCodes.LEASE_EXPIRED,
            Instant.parse("2025-06-01T10:42:04.500Z").toEpochMilli()))
        .event("coordinator-0", 1, new TransferFailed("t-lost", "prefill-0", ReasonCodes.PEER_LOST, 0,
            "decode-0 epoch 3 missed its lease"))
        .at("10:42:08").node("decode-0", 4, joined("decode-0", 4)).node("decode-0", 4, registered("decode-0", 4, "kv-0"))
        .at("10:42:09").event("router-0", 1, request("t-stale", "prefill-0", 5, "decode-0", 3))
        .event("coordinator-0", 1, new TransferRejected("t-stale", "prefill-0", ReasonCodes.STALE_EPOCH,
            "request names decode-0 epoch 3, current epoch is 4"));
  }

  /** prefill-0 epoch 5 and decode-0 epoch 3 with kv-0 each, and transfer {@code id} between them dispatched. */
  private static Script dispatchedAt1040(String id) {
    return new Script()
        .at("10:40:00").node("prefill-0", 5, joined("prefill-0", 5)).node("prefill-0", 5, registered("prefill-0", 5, "kv-0"))
        .node("decode-0", 3, joined("decode-0", 3)).node("decode-0", 3, registered("decode-0", 3, "kv-0"))
        .event("router-0", 1, request(id, "prefill-0", 5, "decode-0", 3))
        .event("coordinator-0", 1, new TransferDispatched(id, "prefill-0", "coordinator-0"));
  }

  private static Explanation explain(Script script, ExplainTarget target) {
    return script.replay(ReplayOptions.defaults().explaining(target)).explain(target);
  }

  @Test
  void explainsARejectionByTheEndOfTheEpochItNamedAndTheReplacement() {
    var explanation = explain(staleDestination(), new ExplainTarget.Transfer("t-stale"));

    assertThat(explanation.found()).isTrue();
    assertThat(explanation.summary()).isEqualTo("Transfer t-stale was rejected at 10:42:09.001: STALE_EPOCH"
        + " (request names decode-0 epoch 3, current epoch is 4). Because region kv-0 on decode-0 belonged to"
        + " epoch 3, which ended at 10:42:07.000 when decode-0 was lost (LEASE_EXPIRED, last heartbeat"
        + " 10:42:04.500); the replacement registered kv-0 at epoch 4 at 10:42:08.001.");
    assertThat(explanation.steps()).extracting(Explanation.Step::type).containsExactly(
        "io.kvfleet.peer.joined", "io.kvfleet.region.registered", "io.kvfleet.peer.lost",
        "io.kvfleet.peer.joined", "io.kvfleet.region.registered", "io.kvfleet.transfer.requested",
        "io.kvfleet.transfer.rejected");
  }

  /**
   * From a snapshot ({@code explain --from-snapshots}) the joins before it are not among the facts:
   * the explanation said decode-0 "had never joined" (a new user's run); it now says what the
   * snapshot knew of it.
   */
  @Test
  void fromASnapshotItSaysWhatTheSnapshotKnewOfANodeNotThatItNeverJoined() {
    assertThat(explainFromTheRequestOf("t-stale", "t-stale")).doesNotContain("never joined")
        .contains("Because decode-0 joined before the snapshot this explanation starts from, where it stood at epoch 4"
            + " (ALIVE); the request named epoch 3");
    assertThat(explainFromTheRequestOf("t-lost", "t-lost"))
        .contains("Because decode-0 epoch 3, which it named (joined before the snapshot this explanation starts from),"
            + " ended at 10:42:07.000 when decode-0 was lost (LEASE_EXPIRED)");
    assertThat(explainFromTheRequestOf("t-ok", "t-ok")).as("both ends alive at the snapshot: nothing to blame")
        .startsWith("Transfer t-ok completed").doesNotContain("Because");
  }

  /** decode-0 restarts at epoch 4 without a loss being written; the snapshot had epoch 3 alive. */
  @Test
  void fromASnapshotItNamesARejoinFoldedAfterIt() {
    var script = new Script()
        .at("10:40:00").node("prefill-0", 5, joined("prefill-0", 5)).node("prefill-0", 5, registered("prefill-0", 5, "kv-0"))
        .node("decode-0", 3, joined("decode-0", 3)).node("decode-0", 3, registered("decode-0", 3, "kv-0"))
        .at("10:41:00").node("decode-0", 4, joined("decode-0", 4))
        .at("10:41:01").event("router-0", 1, request("t-re", "prefill-0", 5, "decode-0", 3))
        .event("coordinator-0", 1, new TransferRejected("t-re", "prefill-0", ReasonCodes.STALE_EPOCH, "epoch 4"));

    String summary = explainFrom(script, data -> data instanceof io.kvfleet.events.PeerJoined j && j.epoch() == 4,
        new ExplainTarget.Transfer("t-re")).summary();

    assertThat(summary).contains("Because decode-0 epoch 3, which it named (joined before the snapshot this"
        + " explanation starts from), was replaced at 10:41:00.000 when decode-0 joined at epoch 4");
  }

  @Test
  void fromASnapshotANodeKnownOnlyThereIsExplainedWithItsLossAfterIt() {
    var explanation = explainFrom(staleDestination(), data -> data instanceof io.kvfleet.events.PeerHeartbeat,
        new ExplainTarget.Node("decode-0"));

    assertThat(explanation.summary()).startsWith("decode-0: 1 incarnation.").as("its rejoin was folded after the snapshot");
    var onlyThere = explainFrom(dispatchedAt1040("t-x").at("10:41:00")
        .event("coordinator-0", 1, new PeerLost("decode-0", 3, ReasonCodes.LEASE_EXPIRED, 0)),
        data -> data instanceof TransferRequested, new ExplainTarget.Node("decode-0"));
    assertThat(onlyThere.summary()).startsWith("decode-0 joined before the snapshot this explanation starts from,"
        + " where it stood at epoch 3 (ALIVE). It was lost (LEASE_EXPIRED) at 10:41:00.000.");
    assertThat(onlyThere.steps()).extracting(Explanation.Step::type).containsExactly("io.kvfleet.peer.lost");
  }

  /** Explains {@code id} replaying {@link #staleDestination} from the state just before {@code cutAt}'s request. */
  private static String explainFromTheRequestOf(String cutAt, String id) {
    return explainFrom(staleDestination(), data -> data instanceof TransferRequested r && r.transferId().equals(cutAt),
        new ExplainTarget.Transfer(id)).summary();
  }

  /** Explains {@code target} replaying {@code script} from the state just before the first event {@code cutAt} takes. */
  private static Explanation explainFrom(Script script, java.util.function.Predicate<io.kvfleet.events.FleetEvent> cutAt,
      ExplainTarget target) {
    var records = script.records();
    int cut = 0;
    while (!(records.get(cut).value() instanceof Decoded.Event e && cutAt.test(e.envelope().data()))) {
      cut++;
    }
    var before = new Replay(ReplayOptions.defaults());
    records.subList(0, cut).forEach(before::accept);
    var after = new Replay(before.state(), ReplayOptions.defaults().explaining(target));
    records.subList(cut, records.size()).forEach(after::accept);
    return after.finish().explain(target);
  }

  @Test
  void explainsAFailureByThePeerLostWhileTheTransferWasInFlight() {
    var explanation = explain(staleDestination(), new ExplainTarget.Transfer("t-lost"));

    assertThat(explanation.summary()).startsWith("Transfer t-lost failed at 10:42:07.001: PEER_LOST")
        .contains("Because decode-0 epoch 3, which it named, ended at 10:42:07.000 when decode-0 was lost (LEASE_EXPIRED")
        .endsWith("; no later epoch of decode-0 had joined.");
  }

  @Test
  void explainsAFailureByThePeerThatLeftWhileTheTransferWasInFlight() {
    var script = dispatchedAt1040("t-left")
        .at("10:41:00").node("decode-0", 3, new PeerLeft("decode-0", 3, ReasonCodes.SHUTDOWN))
        .at("10:41:02").event("coordinator-0", 1, new TransferFailed("t-left", "prefill-0", ReasonCodes.PEER_LEFT, 0,
            "decode-0 epoch 3 left while it was in flight"))
        .at("10:41:05").node("prefill-0", 5, new PeerLeft("prefill-0", 5, ReasonCodes.SHUTDOWN));

    assertThat(explain(script, new ExplainTarget.Transfer("t-left")).summary())
        .startsWith("Transfer t-left failed at 10:41:02.000: PEER_LEFT (decode-0 epoch 3 left while it was in flight);"
            + " a peer it touched left while it was in flight.");
    assertThat(explain(script, new ExplainTarget.Node("decode-0")).summary())
        .contains("1 in-flight transfer failed with PEER_LEFT");
    assertThat(explain(script, new ExplainTarget.Node("prefill-0")).summary())
        .as("the transfer failed for the other peer").contains("prefill-0 left (SHUTDOWN)").doesNotContain("failed with");
  }

  @Test
  void explainsATimeOutAndTheAgentsLateCompletionAfterIt() {
    var script = dispatchedAt1040("t-slow")
        .at("10:40:30").event("coordinator-0", 1, new TransferTimedOut("t-slow", "prefill-0", 0))
        .at("10:40:31").event("prefill-0", 5, new TransferCompleted("t-slow", "prefill-0", 16_384, 31_000_000_000L,
            "ucx/tcp", ""));

    assertThat(explain(script, new ExplainTarget.Transfer("t-slow")).summary())
        .startsWith("Transfer t-slow timed out: its deadline")
        .contains("passed after it was dispatched to prefill-0, which had reported no outcome by then.")
        .endsWith(" Later, after it had ended: t-slow completed: 16.0 KiB in 31000.000 ms via ucx/tcp (by prefill-0)"
            + " at 10:40:31.000; the first end is kept.");
  }

  @Test
  void explainsACompletionWithoutACause() {
    var explanation = explain(staleDestination(), new ExplainTarget.Transfer("t-ok"));

    assertThat(explanation.summary()).isEqualTo("Transfer t-ok completed at 10:40:00.006: 16.0 KiB via host/memcpy.");
    assertThat(explanation.steps()).hasSize(3);
  }

  @Test
  void saysSoWhenTheTransferIsNotInTheLog() {
    var explanation = explain(staleDestination(), new ExplainTarget.Transfer("t-none"));

    assertThat(explanation.found()).isFalse();
    assertThat(explanation.summary()).isEqualTo("no transfer t-none in the log");
  }

  @Test
  void explainsARegionAcrossIncarnationsAndTheTransfersThatNamedIt() {
    var explanation = explain(staleDestination(), ExplainTarget.of("region", "decode-0/kv-0"));

    assertThat(explanation.summary())
        .startsWith("Region kv-0 of decode-0 is LIVE at epoch 4, registered with [host].")
        .contains("Epoch 3 of decode-0 ended at 10:42:07.000 when decode-0 was lost (LEASE_EXPIRED, last heartbeat"
            + " 10:42:04.500); what it registered is stale from then on.")
        .contains("3 transfers named it: {COMPLETED=1, FAILED=1, REJECTED=1}");
  }

  @Test
  void asksWhichNodeWhenARegionIdIsOnSeveral() {
    var explanation = explain(staleDestination(), ExplainTarget.of("region", "kv-0"));

    assertThat(explanation.found()).isFalse();
    assertThat(explanation.summary()).isEqualTo("region kv-0 exists on decode-0, prefill-0: name one as NODE/kv-0");
  }

  @Test
  void explainsARegistrationFailureWithItsDiagnosis() {
    var ucx = new BackendCapability("ucx", true, "1.18.0", List.of(MemoryType.DRAM), List.of("tcp"), "no CUDA");
    var state = new RegionSpec("state-0", RegionKind.STATE, MemoryType.VRAM, 0, 0x7f00, 1 << 16, 0, "state_data", 0);
    var script = new Script().node("prefill-0", 1, joined("prefill-0", 1))
        .node("prefill-0", 1, new RegistrationFailed("prefill-0", 1, state, "ucx", ReasonCodes.MEMORY_TYPE_UNSUPPORTED,
            "", -4, "UCS_ERR_UNSUPPORTED", ucx, "install a UCX built with CUDA"));

    var explanation = explain(script, ExplainTarget.of("region", "state-0"));

    assertThat(explanation.summary()).startsWith("Region state-0 of prefill-0 is FAILED at epoch 1, refused by {ucx=MEMORY_TYPE_UNSUPPORTED}.");
    assertThat(explanation.steps().getLast().text()).contains("ucx refused it: MEMORY_TYPE_UNSUPPORTED (native -4"
        + " UCS_ERR_UNSUPPORTED)").contains("remediation: install a UCX built with CUDA");
  }

  @Test
  void explainsANodeIncarnationByIncarnation() {
    var explanation = explain(staleDestination(), new ExplainTarget.Node("decode-0"));

    assertThat(explanation.summary()).startsWith("decode-0: 2 incarnations. Epoch 3 joined at 10:40:00.002")
        .contains("1 heartbeat, the last at 10:42:04.500; it ended at 10:42:07.000: decode-0 was lost (LEASE_EXPIRED")
        .contains("1 in-flight transfer failed with PEER_LOST")
        .endsWith("Epoch 4 joined at 10:42:08.000 on 10.0.0.1; 1 registration (kv-0 on host); 0 heartbeats; it is ALIVE"
            + " where the replay stopped.");
  }
}
