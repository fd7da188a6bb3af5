package io.kvfleet.control.replay.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvfleet.control.KvfleetException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * One {@code replay --until T} run as an operator runs it: the launcher started as a process of its
 * own (a JVM started, its classes loaded, its compilers cold), timed from before its start to its exit.
 *
 * @param hash the state hash it printed
 */
record CommandRun(double seconds, String hash) {
  /** Longer than a replay of the bench's default log takes: past it the run is stopped and the bench fails. */
  private static final Duration LIMIT = Duration.ofMinutes(5);

  boolean same(String reference) {
    return hash.equals(reference);
  }

  static CommandRun of(Path launcher, Path export, Instant until, Duration keepEnded) {
    return of(launcher, export, until, keepEnded, LIMIT);
  }

  static CommandRun of(Path launcher, Path export, Instant until, Duration keepEnded, Duration limit) {
    String what = launcher + " replay --until " + until;
    Process process = null;
    try {
      Path out = Files.createTempFile("kvfleet-timetravel-", ".json");
      Path err = Files.createTempFile("kvfleet-timetravel-", ".err");
      try {
        long t = System.nanoTime();
        process = new ProcessBuilder(launcher.toString(), "replay", "--file", export.toString(), "--until",
            until.toString(), "--keep-ended", keepEnded.toMillis() + "ms", "--json")
            .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        boolean ended = process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
        double seconds = (System.nanoTime() - t) / 1e9;
        if (!ended) {
          throw KvfleetException.benchFailed(what + " did not end in " + limit, null);
        }
        if (process.exitValue() != 0) {
          // Lenient: whatever the launcher or the JVM wrote, the reason is not to be lost to a decoding error.
          String said = new String(Files.readAllBytes(err), StandardCharsets.UTF_8).strip();
          throw KvfleetException.benchFailed(what + " exited " + process.exitValue() + ": " + said, null);
        }
        var hash = new ObjectMapper().readTree(out.toFile()).path("state").path("hash");
        if (!hash.isTextual()) {
          throw KvfleetException.benchFailed(what + " printed no state hash", null);
        }
        return new CommandRun(seconds, hash.asText());
      } finally {
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
      }
    } catch (IOException e) {
      throw KvfleetException.benchFailed(what, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw KvfleetException.benchFailed(what + ": interrupted", e);
    } finally {
      stop(process);
    }
  }

  /** A run left behind (timed out, or the bench interrupted) is ended, with what it started (a build, the JVM). */
  private static void stop(Process process) {
    if (process != null && process.isAlive()) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
    }
  }
}
