package io.kvfleet.control.cli;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.ReplayJson;
import io.kvfleet.control.coordinator.SnapshotStore;
import io.kvfleet.control.replay.ExportReader;
import io.kvfleet.control.replay.ExportSnapshots;
import io.kvfleet.control.replay.ReplayRunner;
import io.kvfleet.control.replay.ReplayText;
import io.kvfleet.control.replay.SnapshotCheck;
import io.kvfleet.control.replay.TimeTravel;
import io.kvfleet.control.replay.TimelineLine;
import io.kvfleet.events.replay.AnomalyReport;
import io.kvfleet.events.replay.LogPosition;
import io.kvfleet.events.replay.Replay;
import io.kvfleet.events.replay.ReplayOptions;
import io.kvfleet.events.replay.StateReport;
import io.kvfleet.events.replay.TimelineEntry;
import io.kvfleet.events.replay.Until;
import io.kvfleet.events.snapshot.InvalidSnapshotException;
import io.kvfleet.events.state.FleetState;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kvfleet replay}: the fleet state at a moment, the timeline and the anomalies, from Kafka or a file. */
@Command(name = "replay", mixinStandardHelpOptions = true,
    description = "Fold the fleet's log with the coordinator's own fold, from Kafka or from an export, and show "
        + "the state at the end or at --until (peers and epochs, regions by node and kind, failures by reason, "
        + "transfers in flight), the anomalies (sequence gaps, redeliveries, regressions, unended transfers, stale "
        + "epochs, malformed, unreadable, misrouted or misattributed records, invariant breaks; with --trust, records "
        + "their writers had no right to say, not folded) and, with "
        + "--timeline, every event in order with its time since the first.")
final class ReplayCommand implements Callable<Integer> {
  @ArgGroup(exclusive = true, multiplicity = "1")
  SourceOptions from;

  @picocli.CommandLine.Mixin ReadTrustOptions trust;
  @picocli.CommandLine.Mixin KafkaConfigOption kafkaConfig;

  @Option(names = "--until", description = "Stop at a time (2025-06-01T10:42:07Z), after a record (kvfleet.nodes-1@42) "
      + "or after a number of records (1500)")
  String until;

  @Option(names = "--timeline", description = "Print every record folded, in order, with its time since the first")
  boolean timeline;

  @Option(names = "--from-snapshot", description = "Start from a coordinator snapshot's state and fold only the records after it")
  Path fromSnapshot;

  @Option(names = "--check-snapshot", description = "Replay in the fold order a coordinator snapshot recorded and "
      + "check that the log reproduces the snapshot's state hash")
  Path checkSnapshot;

  @Option(names = "--keep-ended", description = "Forget a transfer this long (in log time) after it ended, as a "
      + "coordinator run with the same --keep-ended does (default: keep every transfer; with --from-snapshot and "
      + "--check-snapshot, the snapshot's window)")
  java.time.Duration keepEnded;

  @Option(names = "--no-snapshots", description = "With --until on an export: fold from its start even if snapshots "
      + "beside it (export --snapshots-every) would let the replay start later")
  boolean noSnapshots;

  @Option(names = "--max-anomalies", defaultValue = "50", description = "Anomalies listed in text (default: ${DEFAULT-VALUE})")
  int maxAnomalies;

  @Option(names = "--json", description = "Print JSON for tools")
  boolean json;

  /** What {@code --json} prints. */
  record Output(String source, long records, long malformed, boolean stoppedEarly, StateReport state,
      AnomalyReport anomalies, List<TimelineLine> timeline) {}

  /** What the export given by {@code --file} left out, when it is not the whole log. */
  private Optional<String> filterOfExport() {
    if (from.file == null) {
      return Optional.empty();
    }
    try (var reader = ExportReader.open(from.file)) {
      return Optional.of(reader.header().filter()).filter(f -> !f.startsWith("none"));
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // the replay itself reads it, and says what is wrong with it
    }
  }

  @Override
  public Integer call() {
    if (from.bootstrapServers != null) {
      kafkaConfig.apply(from.bootstrapServers);
    }
    try {
      if (maxAnomalies < 0) {
        throw new IllegalArgumentException("--max-anomalies must not be negative: " + maxAnomalies);
      }
      if (keepEnded != null && (checkSnapshot != null || fromSnapshot != null)) {
        throw new IllegalArgumentException("--keep-ended cannot change a snapshot's window; leave it out with "
            + (checkSnapshot != null ? "--check-snapshot" : "--from-snapshot"));
      }
      if (checkSnapshot != null) {
        return check();
      }
      var lines = new ArrayList<TimelineLine>();
      Consumer<TimelineEntry> sink = !timeline ? e -> {}
          : json ? e -> lines.add(TimelineLine.of(e)) : e -> System.out.println(TimelineLine.text(e));
      var options = trust.verifying(ReplayOptions.defaults().until(until == null ? new Until.End() : Until.parse(until))
          .timeline(sink), from.source(), "replay");
      if (from.bootstrapServers != null && options.until() instanceof Until.AtTime) {
        WritersStamps.note("replay", from.bootstrapServers, System.err);
      }
      FleetState start = keepEnded == null ? new FleetState() : FleetState.keepingEnded(keepEnded);
      Map<String, Long> skip = Map.of();
      String started = "";
      if (fromSnapshot != null) {
        var snapshot = SnapshotStore.read(fromSnapshot);
        if (options.until() instanceof Until.AtTime t && t.time().isBefore(snapshot.header().created())) {
          // Replay order merges partitions by time: a covered record after T may lie past where the replay stops.
          throw KvfleetException.badInput("--until " + until + " comes before snapshot " + fromSnapshot + " was written ("
              + snapshot.header().created() + "): it may hold records after that time; replay without --from-snapshot");
        }
        start = snapshot.state();
        skip = snapshot.header().nextOffsets();
        started = String.format("Started from snapshot %s: %,d events folded by %s up to %s%n", fromSnapshot,
            snapshot.header().applied(), snapshot.header().coordinatorId(), skip);
      }
      io.kvfleet.events.replay.ReplayResult result;
      long before = 0;
      if (usesExportSnapshots()) {
        var travel = TimeTravel.replay(from.file, options, Optional.ofNullable(keepEnded), true);
        result = travel.replay();
        before = travel.start().recordsBefore();
        started = travelled(travel.start());
      } else {
        var replay = new Replay(start, options);
        Map<String, Long> covered = skip;
        Until cut = options.until();
        ReplayRunner.read(from.source(), r -> {
          if (r.position().offset() >= covered.getOrDefault(r.position().partitionKey(), 0L)) {
            return replay.accept(r);
          }
          if (!(cut instanceof Until.AfterCount) && cut.step(r, 0) != Until.Step.FOLD) {
            throw KvfleetException.badInput("--until " + until + " comes before the end of snapshot " + fromSnapshot
                + ": it folded " + r.position() + " (stamped " + r.timestamp() + "); replay without --from-snapshot");
          }
          return true;
        }, true);
        result = replay.finish();
      }
      if (json) {
        System.out.println(ReplayJson.pretty(new Output(from.source().describe(), before + result.records(), result.malformed(),
            result.stoppedEarly(), result.report(), result.anomalies(), timeline ? lines : null)));
      } else {
        if (timeline) {
          System.out.println();
        }
        System.out.print(started);
        filterOfExport().ifPresent(filter -> System.out.println("This export holds only part of the log (" + filter
            + "): the state is of those records, and sequence gaps or violations below may be records it left out."));
        System.out.printf("Replayed %,d records (%,d malformed) from %s%s%n", before + result.records(), result.malformed(),
            from.source().describe(), result.stoppedEarly() ? ", stopped at " + result.lastPosition()
                .map(LogPosition::toString).orElse("the start") + " (--until " + until + ")" : "");
        if (until != null && !result.stoppedEarly()) {
          System.out.println("(--until " + until + " was not reached: this is the state at the end of the log)");
        } else if (until != null && before + result.records() == 0) {
          System.out.println("(--until " + until + " comes before the log's first record: nothing was folded)");
        }
        ReplayText.state(result.report(), System.out);
        ReplayText.anomalies(result.anomalies(), maxAnomalies, System.out);
      }
      return 0;
    } catch (KvfleetException | IllegalArgumentException | InvalidSnapshotException e) {
      System.err.println("kvfleet replay: " + e.getMessage());
      return 2;
    }
  }

  /** Whether this replay may start from a snapshot beside the export: an --until, and nothing that needs every record. */
  private boolean usesExportSnapshots() {
    return from.file != null && until != null && !noSnapshots && fromSnapshot == null && !timeline
        && java.nio.file.Files.isDirectory(ExportSnapshots.dirOf(from.file));
  }

  private String travelled(TimeTravel.Start start) {
    var text = new StringBuilder();
    start.skipped().forEach(s -> text.append("snapshot skipped: ").append(s).append('\n'));
    String window = keepEnded == null ? "kept for ever" : "forgotten " + keepEnded + " after they ended";
    if (start.skipped().contains(TimeTravel.UNVERIFIED)) {
      return text.toString();
    }
    start.snapshot().ifPresentOrElse(s -> text.append(String.format("Started from snapshot %s: the state after the "
        + "export's first %,d records (ended transfers %s); anomalies are those of the records after it%n", s.file(),
        s.header().records(), window)), () -> text.append(String.format("No snapshot beside the export comes before "
        + "--until %s with ended transfers %s: folded from the start (export --keep-ended and replay --keep-ended must "
        + "agree)%n", until, window)));
    return text.toString();
  }

  private int check() {
    var check = SnapshotCheck.against(checkSnapshot, from.source(), !json, trust.verifier("replay"));
    if (json) {
      System.out.println(ReplayJson.pretty(check));
    } else {
      System.out.printf("snapshot %s: coordinator %s had folded %,d events up to %s, hash %s%n", checkSnapshot,
          io.kvfleet.control.console.EventLine.oneLine(check.coordinatorId()), check.coordinatorApplied(),
          check.nextOffsets(), check.coordinatorHash());
      System.out.printf("replay of %s in the coordinator's fold order: %,d records, %,d events, hash %s: %s%n",
          from.source().describe(), check.records(), check.replayApplied(), check.replayHash(),
          check.match() ? "MATCH" : "MISMATCH");
      if (check.leftOut() > 0) {
        System.out.printf("the coordinator's fold order leaves out %,d records the log holds before its end (first: "
            + "%s): it never folded them%n", check.leftOut(), String.join(", ", check.firstLeftOut()));
      }
    }
    return check.match() ? 0 : 1;
  }
}
