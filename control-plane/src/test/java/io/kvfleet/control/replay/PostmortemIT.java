package io.kvfleet.control.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.ReplayJson;
import io.kvfleet.control.coordinator.FoldPosition;
import io.kvfleet.control.coordinator.SnapshotStore;
import io.kvfleet.control.kafka.Await;
import io.kvfleet.events.Topics;
import io.kvfleet.events.replay.AnomalyKind;
import io.kvfleet.events.replay.ExplainTarget;
import io.kvfleet.events.replay.Replay;
import io.kvfleet.events.replay.ReplayOptions;
import io.kvfleet.events.replay.ReplayResult;
import io.kvfleet.events.snapshot.StateHash;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.PeerStatus;
import io.kvfleet.events.state.TransferStatus;
import io.kvfleet.events.state.TransferView;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fleet with a failed VRAM registration, a completed, a rejected and a lost transfer, a node
 * that dies and rejoins, a stale request, and coordinator restarts (the last from a corrupt
 * snapshot) is exported; then, with Kafka stopped, the export is replayed. In each coordinator's
 * recorded fold order it reaches the hash that coordinator reported at every point sampled; in
 * replay order, the hash a replay straight from Kafka reached.
 */
class PostmortemIT {
  static final long PREFILL = 100;
  static final long DECODE = 200;
  static final long DECODE_AGAIN = 201;

  @TempDir static Path dir;
  static Path export;
  static Path snapshots;
  static final List<FoldPosition> sampled = new ArrayList<>();
  static String corrupted;
  static String kafkaReplayHash;

  @BeforeAll
  static void playTheFleetThenExportItAndStopKafka() throws Exception {
    snapshots = dir.resolve("snapshots");
    try (var fleet = new FleetStory(snapshots)) {
      String coordinator = fleet.startCoordinator();
      fleet.join("prefill-0", PREFILL, 120_000);
      fleet.failStateTensor("prefill-0", PREFILL);
      fleet.join("decode-0", DECODE, 1_500);
      fleet.request("t-ok", PREFILL, DECODE, 0);
      fleet.awaitState("t-ok dispatched", s -> status(s, "t-ok") == TransferStatus.DISPATCHED);
      fleet.complete("t-ok", PREFILL);
      fleet.request("t-oob", PREFILL, DECODE, FleetStory.REGION);
      fleet.request("t-lost", PREFILL, DECODE, 4096);
      fleet.awaitState("t-oob rejected, t-lost dispatched", s -> status(s, "t-oob") == TransferStatus.REJECTED
          && status(s, "t-lost") == TransferStatus.DISPATCHED);
      sampled.add(fleet.position());

      // decode-0 stops heartbeating: the coordinator declares it lost and fails t-lost; it rejoins.
      fleet.awaitState("decode-0 lost and t-lost failed", s -> status(s, "t-lost") == TransferStatus.FAILED
          && s.peer("decode-0").map(p -> p.status() == PeerStatus.LOST).orElse(false));
      fleet.join("decode-0", DECODE_AGAIN, 120_000);
      fleet.request("t-stale", PREFILL, DECODE, 8192);
      fleet.awaitState("t-stale rejected", s -> status(s, "t-stale") == TransferStatus.REJECTED);
      var beforeRestart = fleet.position();
      sampled.add(beforeRestart);
      Await.until("a snapshot of everything so far", Duration.ofSeconds(30), () -> fleet.snapshots.files(
          FleetStory.COORDINATOR).stream().anyMatch(f -> applied(f) >= beforeRestart.applied()));

      // The coordinator restarts from its snapshot and goes on.
      fleet.stop(coordinator);
      coordinator = fleet.startCoordinator();
      fleet.request("t-after", PREFILL, DECODE_AGAIN, 0);
      fleet.awaitState("t-after dispatched", s -> status(s, "t-after") == TransferStatus.DISPATCHED);
      fleet.complete("t-after", PREFILL);
      fleet.awaitState("t-after completed", s -> status(s, "t-after") == TransferStatus.COMPLETED);
      Await.until("the restarted coordinator to fold t-after's end", Duration.ofSeconds(30),
          () -> position(fleet).applied() == fleet.state().appliedCount());
      sampled.add(fleet.position());

      // Its newest snapshot is corrupted: the next start skips it.
      fleet.stop(coordinator);
      Path newest = fleet.snapshots.files(FleetStory.COORDINATOR).getFirst();
      byte[] bytes = Files.readAllBytes(newest);
      bytes[bytes.length / 2] ^= 0x20;
      Files.write(newest, bytes);
      corrupted = newest.getFileName().toString();
      coordinator = fleet.startCoordinator();
      sampled.add(fleet.position());

      export = dir.resolve("fleet.jsonl.zst");
      Exporter.export(new Exporter.Options(fleet.bootstrapServers(), Topics.ALL, Map.of(), null, null, null),
          export, Clock.systemUTC(), false);
      var fromKafka = new Replay(ReplayOptions.defaults());
      ReplayRunner.run(LogSource.Kafka.of(fleet.bootstrapServers()), fromKafka, false);
      kafkaReplayHash = StateHash.of(fromKafka.finish().state());
    } // the broker, the coordinator and every writer stop here: only the export and the snapshots remain
  }

  private static TransferStatus status(io.kvfleet.events.state.FleetState s, String id) {
    return s.transfer(id).map(TransferView::status).orElse(null);
  }

  private static FoldPosition position(FleetStory fleet) {
    try {
      return fleet.position();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static long applied(Path snapshotFile) {
    String name = snapshotFile.getFileName().toString();
    return Long.parseLong(name.replaceAll(".*-(\\d{20})-\\d+\\.kvsnap", "$1"));
  }

  private static ReplayResult replayExport(ExplainTarget... explain) {
    var replay = new Replay(ReplayOptions.defaults().explaining(explain));
    ReplayRunner.run(new LogSource.File(export), replay, false);
    return replay.finish();
  }

  @Test
  void theExportReplayedInEachCoordinatorsFoldOrderReachesTheHashItReportedAtEveryPointSampled() {
    assertThat(sampled).hasSize(4);
    for (FoldPosition p : sampled) {
      var check = SnapshotCheck.against(p.coordinatorId(), p.applied(), p.hash(), p.order(),
          FleetState.keepingEnded(Duration.ofMillis(p.keepEndedMillis())), new LogSource.File(export), false);
      assertThat(check.replayApplied()).as("events folded up to %s", p.nextOffsets()).isEqualTo(p.applied());
      assertThat(check.replayHash()).as("hash at %s", p.nextOffsets()).isEqualTo(p.hash());
    }
  }

  @Test
  void restartedCoordinatorsStartFromTheirNewestValidSnapshotAndSkipTheCorruptOne() {
    assertThat(sampled.get(0).startedFrom()).isEmpty();
    assertThat(sampled.get(2).startedFrom()).startsWith("snapshot-coordinator-0-");
    assertThat(sampled.get(3).startedFrom()).startsWith("snapshot-coordinator-0-").isNotEqualTo(corrupted);
    assertThat(sampled.get(3).applied()).isGreaterThanOrEqualTo(sampled.get(2).applied());
  }

  @Test
  void everySnapshotLeftOnDiskIsReproducedByTheExportExceptTheCorruptOne() {
    var files = new SnapshotStore(snapshots).files(FleetStory.COORDINATOR);
    assertThat(files).isNotEmpty();
    for (Path file : files) {
      if (file.getFileName().toString().equals(corrupted)) {
        continue;
      }
      assertThat(SnapshotCheck.against(file, new LogSource.File(export), false).match()).as(file.toString()).isTrue();
    }
  }

  @Test
  void theExportReplaysToTheHashAReplayStraightFromKafkaReached() {
    assertThat(StateHash.of(replayExport().state())).isEqualTo(kafkaReplayHash);
  }

  @Test
  void theReplayShowsTheFailuresTheOutcomesAndTheIncarnations() {
    var result = replayExport();
    var report = result.report();

    assertThat(report.failuresByReason()).containsOnlyKeys("BACKEND_UNAVAILABLE");
    var failure = report.failuresByReason().get("BACKEND_UNAVAILABLE").getFirst();
    assertThat(failure.detail()).as("what the backend found").isNotBlank();
    assertThat(Cli.run("replay", "--file", export.toString()).out())
        .contains(failure.regionId() + " on " + failure.backend() + ": " + failure.detail());
    assertThat(report.peers()).filteredOn(p -> p.nodeId().equals("decode-0"))
        .singleElement().satisfies(p -> assertThat(p.epoch()).isEqualTo(DECODE_AGAIN));
    var state = result.state();
    assertThat(state.transfer("t-ok")).hasValueSatisfying(t -> assertThat(t.status()).isEqualTo(TransferStatus.COMPLETED));
    assertThat(state.transfer("t-oob")).hasValueSatisfying(t -> assertThat(t.reason()).isEqualTo("OUT_OF_BOUNDS"));
    assertThat(state.transfer("t-lost")).hasValueSatisfying(t -> assertThat(t.reason()).isEqualTo("PEER_LOST"));
    assertThat(state.transfer("t-stale")).hasValueSatisfying(t -> assertThat(t.reason()).isEqualTo("STALE_EPOCH"));
    assertThat(state.transfer("t-after")).hasValueSatisfying(t -> assertThat(t.status()).isEqualTo(TransferStatus.COMPLETED));
    assertThat(result.anomalies().count(AnomalyKind.MALFORMED)).isZero();
    assertThat(result.anomalies().count(AnomalyKind.SEQUENCE_GAP)).isZero();
  }

  @Test
  void explainsTheStaleRejectionByTheLossOfTheEpochItNamedAndTheReplacement() {
    var target = new ExplainTarget.Transfer("t-stale");

    var explanation = replayExport(target).explain(target);

    assertThat(explanation.summary()).startsWith("Transfer t-stale was rejected at")
        .contains("STALE_EPOCH")
        .contains("Because region kv-0 on decode-0 belonged to epoch 200, which ended at")
        .contains("when decode-0 was lost (LEASE_EXPIRED")
        .contains("the replacement registered kv-0 at epoch 201");
  }

  @Test
  void replayPrintsTheStateAndAnomaliesAsJsonForTools() throws Exception {
    var run = Cli.run("replay", "--file", export.toString(), "--json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    var json = ReplayJson.mapper().readTree(run.out());
    assertThat(json.at("/state/hash").asText()).isEqualTo(kafkaReplayHash);
    assertThat(json.at("/state/failuresByReason/BACKEND_UNAVAILABLE/0/regionId").asText()).isEqualTo("state-0");
    assertThat(json.at("/state/peers/0/nodeId").asText()).isEqualTo("decode-0");
    assertThat(json.at("/anomalies/counts").isObject()).isTrue();
  }

  @Test
  void replayPrintsATimelineWithRelativeTimesAndStopsWhereAsked() {
    var run = Cli.run("replay", "--file", export.toString(), "--timeline", "--until", "5");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out().lines().filter(l -> l.matches("\\s+\\+\\d+\\.\\d{3}s\\s+kvfleet\\..*"))).hasSize(5);
    assertThat(run.out()).contains("+0.000s").contains("peer.joined").contains("stopped at kvfleet.")
        .contains("State at kvfleet.");
  }

  @Test
  void saysWhenAnUntilWasNeverReachedOrCameBeforeTheLog() {
    var never = Cli.run("replay", "--file", export.toString(), "--until", "kvfleet.nodes-9@3");
    var before = Cli.run("replay", "--file", export.toString(), "--until", "2000-01-01T00:00:00Z");
    var cut = Cli.run("explain", "transfer", "t-stale", "--file", export.toString(), "--until", "1");

    assertThat(never.out()).contains("(--until kvfleet.nodes-9@3 was not reached: this is the state at the end");
    assertThat(before.out()).contains("(--until 2000-01-01T00:00:00Z comes before the log's first record");
    assertThat(cut.exitCode()).isEqualTo(1);
    assertThat(cut.out()).contains("no transfer t-stale in the log")
        .contains("(the replay stopped at --until 1; it may come later in the log)");
  }

  @Test
  void namesAFileThatIsNotAnExportOrNotASnapshot() throws Exception {
    Path zstd = dir.resolve("other.jsonl.zst");
    try (var out = new com.github.luben.zstd.ZstdOutputStream(java.nio.file.Files.newOutputStream(zstd))) {
      out.write("{\"hello\":1}\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    Path text = dir.resolve("notes.kvsnap");
    java.nio.file.Files.writeString(text, "# notes\nnot a snapshot\n");

    var notExport = Cli.run("replay", "--file", zstd.toString());
    var notSnapshot = Cli.run("replay", "--file", export.toString(), "--from-snapshot", text.toString());
    var noSnapshot = Cli.run("replay", "--file", export.toString(), "--check-snapshot", "nosuch.kvsnap");

    assertThat(notExport.err()).contains(zstd + " is not a kvfleet export: its first line is not an export header");
    assertThat(notSnapshot.err()).contains(text + " is not a kvfleet snapshot: its first line is not a snapshot header");
    assertThat(noSnapshot.err()).contains("cannot read nosuch.kvsnap: no such file");
    for (var run : List.of(notExport, notSnapshot, noSnapshot)) {
      assertThat(run.exitCode()).isEqualTo(2);
    }
  }

  @Test
  void explainPrintsTheCausalChainAsTextAndAsJson() throws Exception {
    var text = Cli.run("explain", "transfer", "t-stale", "--file", export.toString());
    var json = Cli.run("explain", "node", "decode-0", "--file", export.toString(), "--json");
    var missing = Cli.run("explain", "region", "decode-0/kv-9", "--file", export.toString());

    assertThat(text.exitCode()).as(text.err()).isZero();
    assertThat(text.out()).contains("belonged to epoch 200").contains("Events, in replay order:")
        .contains("t-stale rejected (by coordinator-0)");
    assertThat(json.exitCode()).as(json.err()).isZero();
    var node = ReplayJson.mapper().readTree(json.out());
    assertThat(node.get("found").asBoolean()).isTrue();
    assertThat(node.get("summary").asText()).startsWith("decode-0: 2 incarnations.");
    assertThat(node.get("steps").get(0).get("type").asText()).isEqualTo("io.kvfleet.peer.joined");
    assertThat(missing.exitCode()).isEqualTo(1);
    assertThat(missing.out()).contains("no region kv-9 of decode-0 in the log");
  }

  @Test
  void replayForgetsEndedTransfersWithAKeepEndedWindowAndKeepsSnapshotsToTheirOwn() {
    Path snapshot = new SnapshotStore(snapshots).files(FleetStory.COORDINATOR).stream()
        .filter(f -> !f.getFileName().toString().equals(corrupted)).findFirst().orElseThrow();

    var forgetting = Cli.run("replay", "--file", export.toString(), "--keep-ended", "1ms");
    var mixed = Cli.run("replay", "--file", export.toString(), "--check-snapshot", snapshot.toString(),
        "--keep-ended", "1ms");

    assertThat(forgetting.exitCode()).as(forgetting.err()).isZero();
    assertThat(forgetting.out()).containsPattern("more ended earlier and were forgotten");
    assertThat(mixed.exitCode()).isEqualTo(2);
    assertThat(mixed.err()).contains("--keep-ended cannot change a snapshot's window");
  }

  @Test
  void replayChecksASnapshotAgainstTheExportAndStartsFromOne() {
    Path snapshot = new SnapshotStore(snapshots).files(FleetStory.COORDINATOR).stream()
        .filter(f -> !f.getFileName().toString().equals(corrupted)).findFirst().orElseThrow();

    var check = Cli.run("replay", "--file", export.toString(), "--check-snapshot", snapshot.toString());
    var from = Cli.run("replay", "--file", export.toString(), "--from-snapshot", snapshot.toString());
    var bad = Cli.run("replay", "--file", export.toString(), "--check-snapshot",
        snapshots.resolve(corrupted).toString());

    assertThat(check.exitCode()).as(check.err()).isZero();
    assertThat(check.out()).contains("MATCH").doesNotContain("MISMATCH");
    assertThat(from.exitCode()).as(from.err()).isZero();
    assertThat(from.out()).contains("Started from snapshot " + snapshot).contains("events folded");
    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.err()).contains("CRC-32C");
  }
}
