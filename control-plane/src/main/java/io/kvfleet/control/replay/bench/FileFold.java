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
   * What one round measured, and the hash every path reached. {@code tokens} is the reference: the
   * same reading of the file, then Jackson's tokenizer over each value and nothing else (the floor
   * under any decoder built on Jackson).
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
      tokens = Rate.best(tokens, Rate.measure("file, one thread: read + Jackson's tokens alone", () -> tokens(file)));
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

  /** Reads the export as a replay does and runs Jackson's tokenizer over every value; how many values. */
  private static long tokens(Path file) {
    long values = 0;
    try (var reader = ExportReader.open(file)) {
      for (var r = reader.next(); r != null; r = reader.next()) {
        if (r.value() == null) {
          continue;
        }
        try (JsonParser p = JSON.createParser(r.value())) {
          while (p.nextToken() != null) {
            // every token read, nothing built
          }
        }
        values++;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return values;
  }

  private static void check(String expected, String actual) {
    if (!expected.equals(actual)) {
      throw new IllegalStateException("the fold reached " + actual + ", not " + expected + ": not deterministic");
    }
  }
}
