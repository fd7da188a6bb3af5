package io.kvfleet.control.replay.bench;

import io.kvfleet.control.replay.ExportSnapshots;
import io.kvfleet.control.replay.LogSource;
import io.kvfleet.control.replay.ReplayRunner;
import io.kvfleet.control.replay.TimeTravel;
import io.kvfleet.events.replay.Replay;
import io.kvfleet.events.replay.ReplayOptions;
import io.kvfleet.events.replay.Until;
import io.kvfleet.events.snapshot.StateHash;
import io.kvfleet.events.state.FleetState;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code kvfleet bench timetravel}: a synthetic export of {@code events} events with a snapshot
 * beside it every {@code every}; then {@code replay --until T} for several T, each timed from the
 * call to the state, and its state hash beside the hash a replay from the start reached at T.
 */
public final class TimeTravelBenchmark {
  private TimeTravelBenchmark() {}

  /**
   * How big and where; with a {@code launcher}, each T is also asked of {@code replay --until T} run by it
   * as a process of its own, as an operator runs it.
   */
  public record Settings(long events, long every, Duration keepEnded, Path workDir, boolean reuse, boolean compareSerial,
      Optional<Path> launcher) {}

  /**
   * Shares of the log at which a T falls; 0.1 is a snapshot's own last record when every is a tenth.
   * 0.0999 and 0.9999 are just before a snapshot, the two worst cases: the first folds 999,000
   * records from the start, the last as many after a snapshot, into its large state.
   */
  static final double[] AT = {0.0004, 0.05, 0.0999, 0.1, 0.1001, 0.35, 0.5, 0.7, 0.9, 0.9999, 1.2};

  /** Runs the benchmark; whether every hash matched. */
  public static boolean run(Settings settings, PrintStream out) throws Exception {
    Files.createDirectories(settings.workDir());
    Path file = settings.workDir().resolve("timetravel.jsonl.zst");
    Instant start = Instant.parse("2026-06-01T00:00:00Z");
    out.printf("load average before: %s%n", ReplayBenchmark.loadAverage());
    long t0 = System.nanoTime();
    var keep = Optional.of(settings.keepEnded());
    if (settings.reuse() && Files.exists(file) && Files.isDirectory(ExportSnapshots.dirOf(file))) {
      out.printf("reusing %s (%,d bytes) and the snapshots beside it%n", file, Files.size(file));
    } else {
      List<io.kvfleet.control.replay.ExportWriter.Frame> frames;
      if (settings.reuse() && Files.exists(file)) {
        frames = io.kvfleet.control.replay.ExportFrames.scan(file);
        out.printf("reusing %s (%,d bytes), its %d frames found again in %.1f s%n", file, Files.size(file),
            frames.size(), (System.nanoTime() - t0) / 1e9);
      } else {
        frames = SyntheticExport.write(file, settings.events(), start,
            io.kvfleet.control.replay.ExportWriter.FRAME_RECORDS);
        out.printf("wrote %,d events to %s (%,d bytes) in %.1f s%n", settings.events(), file, Files.size(file),
            (System.nanoTime() - t0) / 1e9);
      }
      t0 = System.nanoTime();
      var snapshots = ExportSnapshots.write(file, frames, settings.every(), keep);
      long bytes = 0;
      for (Path p : snapshots) {
        bytes += Files.size(p);
      }
      out.printf("wrote %d snapshots (%,d bytes in all) beside it in %.1f s, keeping ended transfers %s%n",
          snapshots.size(), bytes, (System.nanoTime() - t0) / 1e9, settings.keepEnded());
    }

    var times = new ArrayList<Instant>();
    for (double share : AT) {
      times.add(start.plusMillis((long) (share * settings.events()) - 1));
    }
    var reference = reference(file, times, settings, out);

    out.printf("%-26s %12s %-32s %9s %9s %9s %9s %9s  %s%n", "--until T", "records", "started from", "seconds", "restore",
        "tail", "cpu s", "command", "hash = from the start; load");
    boolean all = true;
    double worst = 0;
    double worstCommand = 0;
    for (int i = 0; i < times.size(); i++) {
      var until = new Until.AtTime(times.get(i));
      var row = timed(file, until, keep, false, reference.get(i));
      worst = Math.max(worst, row.seconds());
      all &= row.same();
      String command = "        -";
      String note = "";
      if (settings.launcher().isPresent()) {
        var run = CommandRun.of(settings.launcher().get(), file, times.get(i), settings.keepEnded());
        worstCommand = Math.max(worstCommand, run.seconds());
        all &= run.same(reference.get(i));
        command = String.format("%9.2f", run.seconds());
        note = run.same(reference.get(i)) ? "" : "; the command's hash: NO, " + run.hash();
      }
      out.println(row.line(times.get(i), command, note));
      if (settings.compareSerial()) {
        var serial = timed(file, until, keep, true, reference.get(i));
        all &= serial.same();
        out.println(serial.line(times.get(i), "        -",
            String.format(" serial, ratio %.2f", serial.seconds() / row.seconds())));
      }
    }
    out.printf("%n(seconds: from the call to the state hash, in this JVM, after the rows before it and, without "
        + "--reuse of its hashes, the replay from the start that computed them; restore: choosing, reading and "
        + "checking the snapshot; tail: reading the records after it, folding them to T and hashing the state; cpu s: "
        + "the JVM's CPU time over the same span, all threads%s)%n", settings.launcher().map(l -> String.format(
            "; command: '%s replay --file ... --until T --keep-ended %dms --json' run as a process of its own, from "
                + "before its start to its exit, as an operator runs it", l, settings.keepEnded().toMillis()))
        .orElse(""));
    out.printf("%nworst --until: %.2f s in this JVM (target < 3 s) %s; ", worst, worst < 3 ? "met" : "NOT MET");
    if (settings.launcher().isPresent()) {
      out.printf("%.2f s as a command %s; ", worstCommand, worstCommand < 3 ? "met" : "NOT MET");
    }
    out.printf("every hash equal: %s; load average after: %s%n", all ? "yes" : "NO", ReplayBenchmark.loadAverage());
    return all;
  }

  /** One timed {@code replay --until}: its figures and whether its hash is the reference's. */
  private record Row(TimeTravel.Result result, double seconds, double cpuSeconds, String hash, String reference) {
    boolean same() {
      return hash.equals(reference);
    }

    String line(Instant t, String command, String note) {
      double restore = result.restoring().toNanos() / 1e9;
      return String.format("%-26s %,12d %-32s %9.2f %9.2f %9.2f %9.2f %s  %s", t, result.records(),
          result.start().snapshot().map(s -> s.file().getFileName().toString()).orElse("the start"), seconds, restore,
          seconds - restore, cpuSeconds, command, (same() ? "yes" : "NO (" + hash + " against " + reference + ")")
              + "; load " + ReplayBenchmark.loadAverage() + note);
    }
  }

  private static Row timed(Path file, Until until, Optional<Duration> keep, boolean serial, String reference) {
    long t = System.nanoTime();
    long cpu = processCpuNanos();
    var result = TimeTravel.replay(file, ReplayOptions.defaults().until(until), keep, false, serial);
    String hash = StateHash.of(result.replay().state());
    return new Row(result, (System.nanoTime() - t) / 1e9, (processCpuNanos() - cpu) / 1e9, hash, reference);
  }

  /** CPU time of the whole JVM: on a loaded machine the wall time says little without it. */
  private static long processCpuNanos() {
    var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : 0;
  }

  /**
   * The hashes a replay from the start reaches at each T: computed, and kept in the work folder so that
   * a {@code --reuse} run over the same export and snapshots takes them from there (it says so).
   */
  private static List<String> reference(Path file, List<Instant> times, Settings settings, PrintStream out)
      throws java.io.IOException {
    Path kept = settings.workDir().resolve("reference-hashes.txt");
    String key = "export " + Files.size(file) + " bytes, modified " + Files.getLastModifiedTime(file) + ", keep-ended "
        + settings.keepEnded() + ", at " + times;
    if (settings.reuse() && Files.exists(kept)) {
      var lines = Files.readAllLines(kept);
      if (!lines.isEmpty() && lines.getFirst().equals(key) && lines.size() == times.size() + 1) {
        out.printf("reference hashes (a replay from the start) from %s, computed by an earlier run%n%n", kept);
        return lines.subList(1, lines.size());
      }
    }
    long t0 = System.nanoTime();
    var hashes = fromStart(file, times, settings.keepEnded());
    out.printf("replay from the start, hashing the state at each T on the way: %.1f s%n%n", (System.nanoTime() - t0) / 1e9);
    var lines = new ArrayList<String>();
    lines.add(key);
    lines.addAll(hashes);
    Files.write(kept, lines);
    return hashes;
  }

  /** The state hash a replay from the start reaches at each time (the state before the first record after it). */
  static List<String> fromStart(Path file, List<Instant> times, Duration keepEnded) {
    var hashes = new ArrayList<String>();
    var replay = new Replay(FleetState.keepingEnded(keepEnded), ReplayOptions.defaults());
    ReplayRunner.read(new LogSource.File(file), r -> {
      while (hashes.size() < times.size() && r.timestamp().isAfter(times.get(hashes.size()))) {
        hashes.add(StateHash.of(replay.state()));
      }
      return replay.accept(r);
    }, false);
    while (hashes.size() < times.size()) {
      hashes.add(StateHash.of(replay.state()));
    }
    return hashes;
  }
}
