package io.kvfleet.control.replay;

import io.kvfleet.control.coordinator.SnapshotStore;
import io.kvfleet.events.replay.FoldOrder;
import io.kvfleet.events.replay.Replay;
import io.kvfleet.events.replay.ReplayOptions;
import io.kvfleet.events.snapshot.StateHash;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.trust.Verifier;
import java.nio.file.Path;
import java.util.SortedMap;

/**
 * Checks a log against what a coordinator folded: replays the log in the order the coordinator
 * recorded (in a snapshot, or as it reported its {@code FoldPosition}) and compares the hashes.
 * Equal hashes, and no record of the log before the order's end left out of it, mean the log holds
 * exactly what the coordinator knew at that point.
 *
 * @param coordinatorHash the hash the coordinator had
 * @param replayHash the hash the replay reached
 * @param records the records the replay folded
 * @param leftOut how many records of the log lie before the order's end in their partition but
 *     outside its runs (the fold that recorded it skipped them): a mismatch whatever the hashes
 * @param firstLeftOut the first of them, for people
 */
public record SnapshotCheck(String coordinatorId, long coordinatorApplied, String coordinatorHash,
    SortedMap<String, Long> nextOffsets, long replayApplied, String replayHash, long records, long leftOut,
    java.util.List<String> firstLeftOut, boolean match) {

  /**
   * Replays {@code source} in a snapshot file's recorded order, forgetting ended transfers as the
   * coordinator that wrote it did, and compares with its hash.
   */
  public static SnapshotCheck against(Path snapshotFile, LogSource source, boolean progress) {
    return against(snapshotFile, source, progress, Verifier.off());
  }

  /** As {@link #against(Path, LogSource, boolean)}, folding only what {@code verifier} trusts (a signed fleet's). */
  public static SnapshotCheck against(Path snapshotFile, LogSource source, boolean progress, Verifier verifier) {
    var snapshot = SnapshotStore.read(snapshotFile);
    var header = snapshot.header();
    var fresh = snapshot.state().keepEnded().map(FleetState::keepingEnded).orElseGet(FleetState::new);
    return against(header.coordinatorId(), header.applied(), header.hash(), header.order(), fresh, source, progress,
        verifier);
  }

  /** Replays {@code source} in {@code order} into {@code fresh}, an empty fleet, and compares with {@code hash}. */
  public static SnapshotCheck against(String coordinatorId, long applied, String hash, FoldOrder order,
      FleetState fresh, LogSource source, boolean progress) {
    return against(coordinatorId, applied, hash, order, fresh, source, progress, Verifier.off());
  }

  private static SnapshotCheck against(String coordinatorId, long applied, String hash, FoldOrder order,
      FleetState fresh, LogSource source, boolean progress, Verifier verifier) {
    var replay = new Replay(fresh, ReplayOptions.defaults().verifying(verifier)
        .placement(verifier.isOn() ? io.kvfleet.control.kafka.TransferPlacement.of(source.transferPartitions())
            : io.kvfleet.events.replay.Placement.ANYWHERE));
    var leftOut = ReplayRunner.run(source, replay, order, progress);
    var result = replay.finish();
    String replayHash = StateHash.of(result.state());
    return new SnapshotCheck(coordinatorId, applied, hash, order.nextOffsets(), result.state().appliedCount(),
        replayHash, result.records(), leftOut.size(), leftOut.stream().limit(5).map(Object::toString).toList(),
        replayHash.equals(hash) && leftOut.isEmpty());
  }
}
