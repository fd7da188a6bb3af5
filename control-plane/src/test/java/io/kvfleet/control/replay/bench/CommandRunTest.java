package io.kvfleet.control.replay.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.control.KvfleetException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the time-travel bench makes of a replay run as a process: scripts stand in for the launcher
 * here, each printing what a replay prints or fails with, and recording the arguments it was given.
 */
class CommandRunTest {
  private static final Instant T = Instant.parse("2026-06-01T00:16:38.999Z");

  @TempDir
  Path dir;

  @Test
  void asksTheLauncherForTheReplayToTAndReadsTheHashItPrints() throws IOException {
    Path args = dir.resolve("args");
    var run = CommandRun.of(script("printf '%s\\n' \"$@\" > '" + args + "'\n"
        + "echo '{\"records\":999000,\"state\":{\"position\":\"p\",\"hash\":\"ab12\"}}'"), Path.of("log.jsonl.zst"), T,
        Duration.ofMinutes(10));

    assertThat(run.hash()).isEqualTo("ab12");
    assertThat(run.same("ab12")).isTrue();
    assertThat(run.same("ab13")).isFalse();
    assertThat(run.seconds()).isPositive();
    assertThat(Files.readAllLines(args)).containsExactly("replay", "--file", "log.jsonl.zst", "--until",
        "2026-06-01T00:16:38.999Z", "--keep-ended", "600000ms", "--json");
  }

  @Test
  void aReplayThatFailsFailsTheBenchWithWhatItSaid() throws IOException {
    Path launcher = script("echo 'kvfleet replay: no such file' >&2; exit 2");

    assertThatThrownBy(() -> CommandRun.of(launcher, Path.of("gone.jsonl.zst"), T, Duration.ofMinutes(10)))
        .isInstanceOf(KvfleetException.class)
        .hasMessageContaining("exited 2")
        .hasMessageContaining("kvfleet replay: no such file");
  }

  @Test
  void aReplayThatPrintsNoHashIsNotCountedAsAnAnswer() throws IOException {
    Path launcher = script("echo '{\"records\":0}'");

    assertThatThrownBy(() -> CommandRun.of(launcher, Path.of("log.jsonl.zst"), T, Duration.ofMinutes(10)))
        .isInstanceOf(KvfleetException.class)
        .hasMessageContaining("printed no state hash");
  }

  @Test
  void aReplayThatDoesNotEndIsStoppedWithWhatItStarted() throws IOException {
    Path pid = dir.resolve("pid");
    // As a launcher still building would: a child of its own that outlives the wait.
    Path launcher = script("sleep 600 & echo $! > '" + pid + "'; wait");

    assertThatThrownBy(() -> CommandRun.of(launcher, Path.of("log.jsonl.zst"), T, Duration.ofMinutes(10),
        Duration.ofSeconds(2)))
        .isInstanceOf(KvfleetException.class)
        .hasMessageContaining("did not end in PT2S");
    long child = Long.parseLong(Files.readString(pid).strip());
    var left = ProcessHandle.of(child);
    if (left.isPresent()) {
      assertThat(left.get().onExit()).as("the launcher's own child, stopped with it").succeedsWithin(Duration.ofSeconds(10));
    }
  }

  private Path script(String body) throws IOException {
    Path script = dir.resolve("kvfleet");
    Files.writeString(script, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return script;
  }
}
