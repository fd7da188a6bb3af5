package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.kafka.Await;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.control.replay.Cli;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.Topics;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.trust.FleetKey;
import io.kvfleet.events.trust.KeyBinding;
import io.kvfleet.events.trust.Role;
import io.kvfleet.events.trust.Signing;
import io.kvfleet.events.trust.TrustFile;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A signed fleet's coordinator refuses a genuine signed record that sits out of its partition
 * ({@code EVENT_MISPLACED}); a postmortem replay with the same trust file must refuse it too, or it
 * calls the coordinator's honest snapshot a mismatch and shows a transfer the fleet never took.
 */
class SignedReplayAgreesIT {
  @TempDir Path dir;

  @Test
  void aReplayWithTheTrustFileRefusesWhatTheCoordinatorRefusedAsMisplaced() throws Exception {
    try (var fleet = new Fleet()) {
      String bootstrap = fleet.kafka.bootstrapServers();
      var coordinatorKey = FleetKey.generate("coordinator");
      var routerKey = FleetKey.generate("router-0");
      var trust = TrustFile.of(
          new KeyBinding("coordinator", coordinatorKey.publicKey(), Role.COORDINATOR, Set.of("coordinator"), Set.of()),
          new KeyBinding("router-0", routerKey.publicKey(), Role.ROUTER, Set.of("router-0"), Set.of()));
      Path trustFile = dir.resolve("trust.json");
      trust.save(trustFile);
      var events = new EventPublisher(bootstrap, "coordinator", 1, Clock.systemUTC(), 10_000, Optional.of(coordinatorKey));
      var store = new SnapshotStore(dir.resolve("snapshots"));
      Fleet.await(fleet.vertx.deployVerticle(new Coordinator(bootstrap, events, Clock.systemUTC())
          .withSigning(Signing.of(coordinatorKey, trust)).withSnapshots(store, Duration.ofMillis(300), 1)));
      int partitions = fleet.partitions(Topics.TRANSFERS);
      int wrong = (Ownership.partitionOf("prefill-0", partitions) + 1) % partitions;
      try (var router = new EventPublisher(bootstrap, "router-0", 1, Clock.systemUTC(), 100, Optional.of(routerKey))) {
        router.publish(request("t-good"), "t-good").get();
        router.publish(request("t-copied"), "t-copied", wrong).get(); // signed, in another partition
      }
      Await.until("t-good answered, t-copied dead-lettered, and a snapshot of all that written", Duration.ofSeconds(60),
          () -> !fleet.events("t-good", e -> e instanceof TransferRejected).isEmpty() && snapshotOfAll(fleet, store));
      Path snapshot = store.files("coordinator").get(0);

      var check = Cli.run("replay", "--bootstrap-servers", bootstrap, "--check-snapshot", snapshot.toString(),
          "--trust", trustFile.toString());
      var replay = Cli.run("replay", "--bootstrap-servers", bootstrap, "--trust", trustFile.toString());
      var explain = Cli.run("explain", "transfer", "t-copied", "--bootstrap-servers", bootstrap,
          "--trust", trustFile.toString());

      assertThat(check.exitCode()).as(check.out() + check.err()).isZero();
      assertThat(check.out()).contains("MATCH");
      assertThat(replay.out()).contains(ReasonCodes.EVENT_MISPLACED).doesNotContain("UNTERMINATED");
      assertThat(explain.out()).doesNotContain("REQUESTED");
    }
  }

  /** Whether the coordinator dead-lettered the copy and its newest snapshot covers all it folded. */
  private static boolean snapshotOfAll(Fleet fleet, SnapshotStore store) {
    try {
      return fleet.status("coordinator").poison() == 1 && !store.files("coordinator").isEmpty()
          && SnapshotStore.read(store.files("coordinator").get(0)).header().nextOffsets()
              .equals(fleet.position("coordinator").nextOffsets());
    } catch (Exception e) {
      return false;
    }
  }

  private static TransferRequested request(String id) {
    return new TransferRequested(id, "prefill-0", 1, "kv_data-0", "decode-0", 1, "kv_data-0", TransferOp.WRITE,
        List.of(new ByteRange(0, 4096, 4096)), System.currentTimeMillis() + 30_000, true);
  }
}
