package io.kvfleet.control.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.replay.Cli;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A mistake in the ops API's options ends in one line and exit code 2 before anything starts. */
class OpsOptionsTest {
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "demo --api-port 70000 | --api-port must be 0 to 65535, not 70000",
      "demo --api-token-file /no/such/token | cannot read the API token file /no/such/token",
      "coordinator --bootstrap-servers 127.0.0.1:1 --api-port -1 | --api-port must be 0 to 65535, not -1"})
  void refusesABadApiOptionBeforeStartingAnything(String command, String message) {
    var run = Cli.run(command.split(" "));

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains(message).doesNotContain("\tat ");
    assertThat(run.out()).as("nothing started").doesNotContain("embedded Kafka broker");
  }
}
