package io.kvfleet.control.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.coordinator.SnapshotStore;
import io.kvfleet.control.replay.bench.SyntheticExport;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.replay.FoldOrder;
import io.kvfleet.events.replay.LogRecord;
import io.kvfleet.events.snapshot.StateSnapshot;
import io.kvfleet.events.state.FleetState;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code replay --check-snapshot} and {@code --from-snapshot} against a coordinator snapshot that does not tell the log's story. */
class CoordinatorSnapshotReplayTest {
  private static final Instant START = Instant.parse("2026-06-01T00:00:00Z");
  private static final int RECORDS = 3_000; // one a millisecond
  @TempDir static Path dir;
  static Path export;
  static List<LogRecord> log = new ArrayList<>();

  @BeforeAll
  static void writeAnExport() throws Exception {
    export = dir.resolve("fleet.jsonl.zst");
    SyntheticExport.write(export, RECORDS, START, 100_000);
    ReplayRunner.read(new LogSource.File(export), log::add, false);
  }

  /** A snapshot of every record {@code folds} accepts, folded in file order, with that order recorded. */
  private static Path snapshot(String name, Predicate<LogRecord> folds) throws Exception {
    return snapshot(name, folds, START);
  }

  private static Path snapshot(String name, Predicate<LogRecord> folds, Instant created) throws Exception {
    var state = new FleetState();
    var runs = new ArrayList<FoldOrder.Run>();
    for (LogRecord r : log) {
      if (!folds.test(r)) {
        continue;
      }
      if (r.value() instanceof Decoded.Event e) {
        state.apply(e.envelope());
      }
      var at = r.position();
      var last = runs.isEmpty() ? null : runs.getLast();
      if (last != null && last.topic().equals(at.topic()) && last.partition() == at.partition()) {
        runs.set(runs.size() - 1, new FoldOrder.Run(at.topic(), at.partition(), last.from(), at.offset()));
      } else {
        runs.add(new FoldOrder.Run(at.topic(), at.partition(), at.offset(), at.offset()));
      }
    }
    var ids = new TreeMap<>(Map.of("kvfleet.nodes", "n", "kvfleet.transfers", "t"));
    return new SnapshotStore(dir.resolve(name)).write("coordinator", StateSnapshot.of(state), new FoldOrder(runs),
        created, ids);
  }

  @Test
  void aSnapshotWhoseOrderLeavesOutARecordOfTheLogIsAMismatch() throws Exception {
    LogRecord hidden = log.get(RECORDS - 10);
    Path holey = snapshot("holey", r -> r != hidden);
    Path whole = snapshot("whole", r -> true);

    var check = Cli.run("replay", "--file", export.toString(), "--check-snapshot", holey.toString());
    var honest = Cli.run("replay", "--file", export.toString(), "--check-snapshot", whole.toString());

    assertThat(check.exitCode()).as(check.out() + check.err()).isEqualTo(1);
    assertThat(check.out()).contains("MISMATCH").contains("leaves out 1 records").contains(hidden.position().toString());
    assertThat(honest.exitCode()).as(honest.out() + honest.err()).isZero();
    assertThat(honest.out()).contains("MATCH").doesNotContain("leaves out");
  }

  @Test
  void anUntilBeforeTheSnapshotsEndIsRefusedNotAnsweredWithALaterState() throws Exception {
    Path whole = snapshot("until", r -> true, START);
    // Written after its records: an --until before that may name a time inside it, whichever partition holds it.
    Path later = snapshot("written-later", r -> r.position().offset() < 100, START.plusSeconds(3_600));

    var before = Cli.run("replay", "--file", export.toString(), "--from-snapshot", whole.toString(),
        "--until", START.plusMillis(RECORDS / 2).toString());
    var after = Cli.run("replay", "--file", export.toString(), "--from-snapshot", whole.toString(),
        "--until", START.plusSeconds(3_600).toString());

    assertThat(before.exitCode()).as(before.out() + before.err()).isEqualTo(2);
    assertThat(before.err()).contains("comes before the end of snapshot").contains("replay without --from-snapshot");
    assertThat(after.exitCode()).as(after.out() + after.err()).isZero();
    var beforeWritten = Cli.run("replay", "--file", export.toString(), "--from-snapshot", later.toString(),
        "--until", START.plusSeconds(60).toString());
    assertThat(beforeWritten.exitCode()).as(beforeWritten.out() + beforeWritten.err()).isEqualTo(2);
    assertThat(beforeWritten.err()).contains("comes before snapshot").contains("was written");
  }
}
