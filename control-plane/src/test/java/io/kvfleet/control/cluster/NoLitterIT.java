package io.kvfleet.control.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A command that starts nothing leaves no log file behind (real {@code kvfleet} processes). */
class NoLitterIT {
  @TempDir Path folder;

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {"--help | 0", "help | 0", "help demo | 0", "demo --help | 0", "--version | 0",
      "demo --no-such-option | 2", "no-such-command | 2", "demo --rate 0 | 2",
      "tail --bootstrap-servers 127.0.0.1:1 --duration 1s | 2"})
  void aCommandThatStartsNothingLeavesNoLogFile(String command, int exitCode) throws Exception {
    Path log = folder.resolve("kvfleet.log");
    try (var process = KvfleetProcess.start("litter", Map.of("KVFLEET_LOG", log.toString()), command.split(" "))) {
      assertThat(process.exitCode(120)).as(process.console()).isEqualTo(exitCode);
    }

    assertThat(Files.exists(log)).as("a log file after 'kvfleet " + command + "'").isFalse();
  }
}
