package io.kvfleet.control.replay.bench;

import com.fasterxml.jackson.core.JsonFactory;
import io.kvfleet.control.replay.ExportReader;
import io.kvfleet.control.replay.LogSource;
import io.kvfleet.control.replay.ReplayRunner;
import io.kvfleet.control.replay.StoredRecord;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EventCodec;
import io.kvfleet.events.replay.LogRecord;
import io.kvfleet.events.replay.Replay;
import io.kvfleet.events.replay.ReplayOptions;
import io.kvfleet.events.snapshot.StateHash;
import io.kvfleet.events.state.FleetState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Folding an export on one thread: the whole path (decompression, JSON, decode, fold with anomaly checks),
 * and the fold alone over records already decoded in memory (with and without the anomaly checks).
 */
final class FileFold {
  private FileFold() {}

  /** What one round measured, and the hash every path reached. */
  record Result(Rate tokensOnly, Rate decodeOnly, Rate endToEnd, Rate pipelined, Rate replayOnly, Rate foldOnly,
      String hash) {}

  static Result measure(Path file, int rounds) {
    Rate endToEnd = null;
    Rate pipelined = null;
    String hash = null;
    for (int i = 0; i < rounds; i++) {
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
    List<StoredRecord> stored = new ArrayList<>();
    try (var reader = ExportReader.open(file)) {
      for (var r = reader.next(); r != null; r = reader.next()) {
        stored.add(r);
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    var codec = new EventCodec();
    var json = new JsonFactory();
    Rate tokensOnly = null;
    Rate decodeOnly = null;
    for (int i = 0; i < rounds; i++) {
      // The floor under any Jackson decoder: tokenising each value, no string, no record, no check.
      tokensOnly = Rate.best(tokensOnly, Rate.measure("stored records: JSON tokens only (Jackson)", () -> {
        long tokens = 0;
        for (var r : stored) {
          try (var p = json.createParser(r.value())) {
            while (p.nextToken() != null) {
              tokens++;
            }
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        }
        return tokens > 0 ? stored.size() : 0;
      }));
      decodeOnly = Rate.best(decodeOnly, Rate.measure("stored records: EventCodec.decode only", () -> {
        long events = 0;
        for (var r : stored) {
          events += r.decode(codec).value() instanceof Decoded.Event ? 1 : 0;
        }
        return events;
      }));
    }
    stored.clear();
    List<LogRecord> records = new ArrayList<>();
    ReplayRunner.read(new LogSource.File(file), records::add, false);
    List<Envelope> envelopes = records.stream()
        .flatMap(r -> r.value() instanceof Decoded.Event e ? java.util.stream.Stream.of(e.envelope())
            : java.util.stream.Stream.empty()).toList();
    Rate replayOnly = null;
    Rate foldOnly = null;
    for (int i = 0; i < rounds + 1; i++) {
      var replay = new Replay(ReplayOptions.defaults());
      replayOnly = Rate.best(replayOnly, Rate.measure("decoded records: fold + anomalies", () -> {
        records.forEach(replay::accept);
        return records.size();
      }));
      check(hash, StateHash.of(replay.finish().state()));
      var state = new FleetState();
      foldOnly = Rate.best(foldOnly, Rate.measure("decoded records: FleetState.apply only", () -> {
        envelopes.forEach(state::apply);
        return envelopes.size();
      }));
      check(hash, StateHash.of(state));
    }
    return new Result(tokensOnly, decodeOnly, endToEnd, pipelined, replayOnly, foldOnly, hash);
  }

  private static void check(String expected, String actual) {
    if (!expected.equals(actual)) {
      throw new IllegalStateException("the fold reached " + actual + ", not " + expected + ": not deterministic");
    }
  }
}
