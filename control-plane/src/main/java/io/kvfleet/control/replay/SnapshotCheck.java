package io.kvfleet.control.replay;

import io.kvfleet.events.replay.FoldOrder;
import io.kvfleet.events.replay.Replay;
import io.kvfleet.events.replay.ReplayOptions;
import java.nio.file.Path;
import java.util.SortedMap;

/**
 * Checks a log against what a coordinator folded: replays the log in the order the coordinator
 * recorded (in a snapshot, or as it reported its {@code FoldPosition}) and compares the hashes.
 * Equal hashes mean the log holds exactly what the coordinator knew at that point.
 *
 * @param coordinatorHash the hash the coordinator had
 * @param replayHash the hash the replay reached
 * @param records the records the replay folded
 */
public record SnapshotCheck(String coordinatorId, long coordinatorApplied, String coordinatorHash,
    SortedMap<String, Long> nextOffsets, long replayApplied, String replayHash, long records, boolean match) {

  /** Replays {@code source} in a snapshot file's recorded order and compares with its hash. */
  public static SnapshotCheck against(Path snapshotFile, LogSource source, boolean progress) {
    var snapshot = SnapshotStore.read(snapshotFile);
    var header = snapshot.header();
    return against(header.coordinatorId(), header.applied(), header.hash(), header.order(), source, progress);
  }

  /** Replays {@code source} in {@code order} and compares with {@code hash}. */
  public static SnapshotCheck against(String coordinatorId, long applied, String hash, FoldOrder order,
      LogSource source, boolean progress) {
    var replay = new Replay(ReplayOptions.defaults());
    ReplayRunner.run(source, replay, order, progress);
    var result = replay.finish();
    String replayHash = result.state().hash();
    return new SnapshotCheck(coordinatorId, applied, hash, order.nextOffsets(), result.state().appliedCount(),
        replayHash, result.records(), replayHash.equals(hash));
  }
}
