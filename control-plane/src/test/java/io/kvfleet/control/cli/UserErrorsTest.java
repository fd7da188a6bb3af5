package io.kvfleet.control.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.replay.Cli;
import org.junit.jupiter.api.Test;

/** A mistake the user can act on ends in one line saying what, and exit code 2, never a stack trace. */
class UserErrorsTest {
  @Test
  void anUnresolvableClusterHostIsNamedEvenThoughItFailsInsideAFuture() {
    var run = Cli.run("node", "--id", "prefill-0", "--bootstrap-servers", "127.0.0.1:1",
        "--cluster-host", "no-such-host.invalid");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("kvfleet node: cannot resolve cluster host no-such-host.invalid")
        .doesNotContain("\tat ");
  }
}
