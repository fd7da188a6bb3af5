package io.kvfleet.control.replay.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * One {@code replay --until T} run as an operator runs it: the launcher started as a process of its
 * own (a JVM started, its classes loaded, its compilers cold), timed from its start to its exit.
 *
 * @param hash the state hash it printed
 */
record CommandRun(double seconds, String hash) {
  /** Longer than any replay of the bench's log takes: past it the run is stopped and the bench fails with why. */
  private static final Duration LIMIT = Duration.ofMinutes(5);

  boolean same(String reference) {
    return hash.equals(reference);
  }

  static CommandRun of(Path launcher, Path export, Instant until, Duration keepEnded) {
    try {
      Path out = Files.createTempFile("kvfleet-timetravel-", ".json");
      Path err = Files.createTempFile("kvfleet-timetravel-", ".err");
      try {
        var process = new ProcessBuilder(launcher.toString(), "replay", "--file", export.toString(), "--until",
            until.toString(), "--keep-ended", keepEnded.toMillis() + "ms", "--json")
            .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        long t = System.nanoTime();
        boolean ended = process.waitFor(LIMIT.toMillis(), TimeUnit.MILLISECONDS);
        double seconds = (System.nanoTime() - t) / 1e9;
        if (!ended) {
          process.destroyForcibly();
          throw new IllegalStateException(launcher + " replay --until " + until + " did not end in " + LIMIT);
        }
        if (process.exitValue() != 0) {
          throw new IllegalStateException(launcher + " replay --until " + until + " exited " + process.exitValue()
              + ": " + Files.readString(err).strip());
        }
        var hash = new ObjectMapper().readTree(out.toFile()).path("state").path("hash");
        if (!hash.isTextual()) {
          throw new IllegalStateException(launcher + " replay --until " + until + " printed no state hash");
        }
        return new CommandRun(seconds, hash.asText());
      } finally {
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while " + launcher + " replayed to " + until, e);
    }
  }
}
