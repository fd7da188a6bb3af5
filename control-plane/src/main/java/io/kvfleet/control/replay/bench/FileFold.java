package io.kvfleet.control.replay.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import io.kvfleet.control.replay.ExportReader;
import io.kvfleet.control.replay.LogSource;
import io.kvfleet.control.replay.ReplayRunner;
import io.kvfleet.events.replay.Replay;
import io.kvfleet.events.replay.ReplayOptions;
import io.kvfleet.events.snapshot.StateHash;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * Folding an export: the whole path (decompression, JSON, decode, fold with anomaly checks) on one
 * thread, and with decoding on several. Its parts alone (Jackson's tokenizer, {@code EventCodec.decode},
 * the fold with and without the anomaly checks) are JMH micro-benchmarks in the test tree
 * ({@code DecodeBenchmark}, {@code FoldBenchmark}; BENCHMARKS.md has the command).
 */
final class FileFold {
  private FileFold() {}

  private static final JsonFactory JSON = new JsonFactory();

  /**
   * What one round measured, and the hash every path reached. {@code tokens} is the reference:
   * Jackson's tokenizer alone over the same values, nothing built (the floor under any decoder
   * built on Jackson), timed without the reading of the file.
   */
  record Result(Rate endToEnd, Rate pipelined, Rate tokens, String hash) {
    /** The whole path on one core against the tokenizer's floor on one core. */
    double ratio() {
      return endToEnd.perCpuSecond() / tokens.perCpuSecond();
    }
  }

  static Result measure(Path file, int rounds) {
    Rate endToEnd = null;
    Rate pipelined = null;
    Rate tokens = null;
    String hash = null;
    for (int i = 0; i < rounds; i++) {
      tokens = Rate.best(tokens, tokens(file));
      var replay = new Replay(ReplayOptions.defaults());
      endToEnd = Rate.best(endToEnd, Rate.measure("file, one thread: read+decode+fold+anomalies", () -> {
        ReplayRunner.read(new LogSource.File(file), replay::accept, false, 0);
        return replay.state().appliedCount();
      }));
      hash = StateHash.of(replay.finish().state());
      var parallel = new Replay(ReplayOptions.defaults());
      pipelined = Rate.best(pipelined, Rate.measure("file, " + ReplayRunner.DECODE_THREADS
          + " decoding threads + 1 folding", () -> {
            ReplayRunner.run(new LogSource.File(file), parallel, false);
            return parallel.state().appliedCount();
          }));
      check(hash, StateHash.of(parallel.finish().state()));
    }
    return new Result(endToEnd, pipelined, tokens, hash);
  }

  /**
   * Jackson's tokenizer over every value of the export, on this thread, timed alone: values are read
   * a batch at a time and only the tokenizing of each batch is counted (as the issue states the
   * floor: the tokenizer alone over the same records, not the reading of the file).
   */
  private static Rate tokens(Path file) {
    var threads = java.lang.management.ManagementFactory.getThreadMXBean();
    long values = 0;
    long cpu = 0;
    long wall = 0;
    var batch = new java.util.ArrayList<byte[]>(10_000);
    try (var reader = ExportReader.open(file)) {
      for (var r = reader.next(); ; r = reader.next()) {
        if (r != null && r.value() != null) {
          batch.add(r.value());
        }
        if (batch.size() == 10_000 || r == null) {
          long cpuStart = threads.getCurrentThreadCpuTime();
          long wallStart = System.nanoTime();
          for (byte[] value : batch) {
            try (JsonParser p = JSON.createParser(value)) {
              while (p.nextToken() != null) {
                // every token read, nothing built
              }
            }
          }
          wall += System.nanoTime() - wallStart;
          cpu += threads.getCurrentThreadCpuTime() - cpuStart;
          values += batch.size();
          batch.clear();
        }
        if (r == null) {
          break;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Rate("one thread: Jackson's tokens alone, same values", values, wall / 1e9, cpu / 1e9, Double.NaN);
  }

  private static void check(String expected, String actual) {
    if (!expected.equals(actual)) {
      throw new IllegalStateException("the fold reached " + actual + ", not " + expected + ": not deterministic");
    }
  }
}
