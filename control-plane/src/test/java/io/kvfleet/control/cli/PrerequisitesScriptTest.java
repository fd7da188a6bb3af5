package io.kvfleet.control.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The launcher's prerequisite logic ({@code .ci/prerequisites.sh}): which packages, and what to do. */
class PrerequisitesScriptTest {
  private static final Path SCRIPT = Path.of("..", ".ci", "prerequisites.sh").toAbsolutePath().normalize();

  record Run(int exitCode, String out) {}

  @Test
  void theDemoNeedsTheUcxRuntimeAndTheTestsEverythingTheyUse() throws Exception {
    assertThat(run(Map.of(), "needed", "demo").out()).isEqualTo("libucx0 ucx-utils");
    assertThat(run(Map.of(), "needed", "test").out())
        .isEqualTo("libucx0 libucx-dev ucx-utils kcat gcc prometheus chromium chromium-driver");
  }

  @Test
  void withUcxOffNoUcxPackageIsAskedFor() throws Exception {
    assertThat(run(Map.of(), "needed", "demo", "off").out()).isEmpty();
    assertThat(run(Map.of(), "needed", "test", "off").out())
        .isEqualTo("kcat gcc prometheus chromium chromium-driver");
  }

  @Test
  void rootWithAptInstallsAnyoneElseIsToldTheCommand() throws Exception {
    assertThat(run(Map.of(), "plan", "0", "yes", "kcat").out()).isEqualTo("install");
    assertThat(run(Map.of(), "plan", "1000", "yes", "kcat").out()).isEqualTo("stop");
    assertThat(run(Map.of(), "plan", "0", "no", "kcat").out()).isEqualTo("stop");
    assertThat(run(Map.of(), "plan", "1000", "no").out()).isEqualTo("nothing");
  }

  @Test
  void aUcxSwitchThatIsNeitherOnNorOffIsRefused() throws Exception {
    var run = run(Map.of("KVFLEET_UCX", "maybe"), "check", "demo");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.out()).isEqualTo("kvfleet: KVFLEET_UCX=maybe: say on (the default) or off (run without UCX on purpose)");
  }

  @Test
  void aCommandWithoutAListIsRefused() throws Exception {
    var run = run(Map.of(), "needed", "kafka");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.out()).isEqualTo("prerequisites: no list for 'kafka' (demo or test)");
  }

  private static Run run(Map<String, String> env, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
    command.addAll(List.of(args));
    var builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().putAll(env);
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("the script ended").isTrue();
    return new Run(process.exitValue(), out);
  }
}
