package io.kvfleet.control.replay;

import static java.util.Objects.requireNonNull;

import io.kvfleet.events.replay.Replay;
import io.kvfleet.events.replay.ReplayOptions;
import io.kvfleet.events.replay.ReplayResult;
import io.kvfleet.events.replay.Until;
import io.kvfleet.events.snapshot.InvalidSnapshotException;
import io.kvfleet.events.state.FleetState;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code replay --until} over an export that has snapshots beside it ({@link ExportSnapshots}):
 * the newest snapshot that a replay from the start would fold all of on its way to the
 * {@link Until}, with the same window for ended transfers, is restored, and only the records after
 * it are read, from the compressed frame it names. The state reached is the one a replay from the
 * start reaches ({@code TimeTravelTest} checks the hashes). When no snapshot precedes the until
 * (or none fits, or the until names a record position, which only a full read can place), the
 * export is folded from its start. So is it for a replay that verifies signatures: the snapshots
 * fold every readable record, and such a replay folds only what its writer had the right to say.
 */
public final class TimeTravel {
  /** Why a verifying replay starts from the start. */
  public static final String UNVERIFIED = "the snapshots beside the export fold every record without checking "
      + "signatures; with --trust the export is folded from its start";

  private TimeTravel() {}

  /**
   * Where a replay starts.
   *
   * @param snapshot the snapshot restored, if any
   * @param until the until for the records after it
   * @param skipped snapshots that were passed over, each with its reason
   */
  public record Start(Optional<ExportSnapshots.Loaded> snapshot, Until until, List<String> skipped) {
    public Start {
      requireNonNull(snapshot, "snapshot must not be null");
      requireNonNull(until, "until must not be null");
      skipped = List.copyOf(skipped);
    }

    /** Records of the export the start state already folded. */
    public long recordsBefore() {
      return snapshot.map(s -> s.header().records()).orElse(0L);
    }
  }

  /** What a time-travel replay reached, from where, and how long choosing and restoring the snapshot took. */
  public record Result(Start start, ReplayResult replay, Duration restoring) {
    /** Records folded in all, those of the snapshot included. */
    public long records() {
      return start.recordsBefore() + replay.records();
    }
  }

  /** Whether a replay from the start towards {@code until} folds every record the snapshot folded. */
  static boolean precedes(ExportSnapshotHeader header, Until until) {
    return switch (until) {
      case Until.End e -> true;
      case Until.AtTime t -> header.maxTimestamp() <= t.time().toEpochMilli();
      case Until.AfterCount c -> header.records() <= c.records();
      case Until.AtRecord r -> false;
    };
  }

  /** The until for the records after the snapshot. */
  static Until after(ExportSnapshotHeader header, Until until) {
    return switch (until) {
      case Until.AfterCount c -> new Until.AfterCount(c.records() - header.records());
      case Until.End e -> e;
      case Until.AtTime t -> t;
      case Until.AtRecord r -> r;
    };
  }

  /** Picks and restores the newest usable snapshot beside {@code export}, or none. */
  public static Start start(Path export, Until until, Optional<Duration> keepEnded) {
    return start(export, until, keepEnded, false);
  }

  private static Start start(Path export, Until until, Optional<Duration> keepEnded, boolean serial) {
    var skipped = new ArrayList<String>();
    java.time.Instant created;
    try (var reader = ExportReader.open(export)) {
      created = reader.header().created();
    } catch (IOException e) {
      return new Start(Optional.empty(), until, List.of(e.getMessage()));
    }
    long window = keepEnded.map(Duration::toMillis).orElse(-1L);
    for (var listed : ExportSnapshots.list(export, skipped)) {
      var header = listed.header();
      if (header.keepEndedMillis() != window || !precedes(header, until)) {
        continue; // another window, or past the until: not a skip worth reporting
      }
      try {
        var loaded = ExportSnapshots.load(listed, created, serial);
        return new Start(Optional.of(loaded), after(header, until), skipped);
      } catch (InvalidSnapshotException e) {
        skipped.add(listed.file().getFileName() + ": " + e.getMessage());
      }
    }
    return new Start(Optional.empty(), until, skipped);
  }

  /** Replays {@code export} towards {@code options}' until, from the newest usable snapshot. */
  public static Result replay(Path export, ReplayOptions options, Optional<Duration> keepEnded, boolean progress) {
    return replay(export, options, keepEnded, progress, false);
  }

  /**
   * {@link #replay}, or with {@code serial} the way the previous release did it, kept as the
   * benchmark's reference: the restored state walked for its hash, the records after it read by one
   * thread ({@link ReplayRunner#readFrom}).
   */
  public static Result replay(Path export, ReplayOptions options, Optional<Duration> keepEnded, boolean progress,
      boolean serial) {
    long began = System.nanoTime();
    var start = options.verifier().isOn() ? new Start(Optional.empty(), options.until(), List.of(UNVERIFIED))
        : start(export, options.until(), keepEnded, serial);
    var restoring = Duration.ofNanos(System.nanoTime() - began);
    FleetState state = start.snapshot().map(ExportSnapshots.Loaded::state)
        .orElseGet(() -> keepEnded.map(FleetState::keepingEnded).orElseGet(FleetState::new));
    var replay = new Replay(state, options.until(start.until()));
    if (start.snapshot().isPresent()) {
      var header = start.snapshot().get().header();
      if (serial) {
        ReplayRunner.readFrom(export, header.frame(), header.skip(), replay::accept, progress);
      } else {
        FrameTail.read(export, header.tailFrames(), header.skip(), replay::accept, ReplayRunner.DECODE_THREADS);
      }
    } else {
      ReplayRunner.read(new LogSource.File(export), replay::accept, progress);
    }
    return new Result(start, replay.finish(), restoring);
  }
}
