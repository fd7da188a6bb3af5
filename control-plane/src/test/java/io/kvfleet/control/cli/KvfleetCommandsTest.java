package io.kvfleet.control.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KvfleetCommandsTest {
  @Test
  void aStartHoldsOnlyTheCommandItRuns() {
    assertThat(Kvfleet.commandLine("node").getSubcommands()).containsOnlyKeys("node");
    assertThat(Kvfleet.commandLine("coordinator").getSubcommands()).containsOnlyKeys("coordinator");
  }

  @Test
  void usageHelpAndAWrongNameSeeEveryCommand() {
    for (String first : new String[] {"", "--help", "help", "nodes"}) {
      assertThat(Kvfleet.commandLine(first).getSubcommands()).as(first)
          .containsKeys("demo", "kafka", "coordinator", "node", "bench", "replay", "keys", "help");
    }
  }

  @Test
  void theOneCommandKeepsTheConvertersOfTheWholeLine() {
    var line = Kvfleet.commandLine("node");
    var parsed = line.parseArgs("node", "--id", "n", "--bootstrap-servers", "127.0.0.1:9092", "--heartbeat", "250ms");
    assertThat(parsed.subcommand().matchedOptionValue("--heartbeat", java.time.Duration.ZERO))
        .isEqualTo(java.time.Duration.ofMillis(250));
  }
}
