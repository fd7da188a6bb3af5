package io.kvfleet.control.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code node --ucx-allow-tcp}: off unless given, and a node that has it says at start what it opens. */
class UcxTcpWarningTest {
  @Test
  void aNodeKeepsUcxOffTcpUnlessToldOtherwise() {
    assertThat(allowsTcp("node", "--id", "n", "--bootstrap-servers", "127.0.0.1:9092")).isFalse();
    assertThat(allowsTcp("node", "--id", "n", "--bootstrap-servers", "127.0.0.1:9092", "--ucx-allow-tcp")).isTrue();
  }

  @Test
  void warnsWhatTcpOpensOnlyWhenItIsAllowed() {
    assertThat(UcxTcpWarning.line("prefill-0", false)).isEmpty();
    assertThat(UcxTcpWarning.line("prefill-0", true)).hasValueSatisfying(line -> assertThat(line)
        .startsWith("kvfleet: WARNING: UCX's tcp transport is ON (node prefill-0, --ucx-allow-tcp)")
        .contains("ANY address of this process", "docs/SECURITY.md"));
  }

  private static boolean allowsTcp(String... args) {
    var parsed = Kvfleet.commandLine("node").parseArgs(args);
    return ((NodeCommand) parsed.subcommand().commandSpec().userObject()).ucxAllowTcp;
  }
}
