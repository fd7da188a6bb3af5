package io.kvfleet.engine.cuda;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a main class of this module in a fresh JVM, for what happens once per process (library loading). */
final class ChildJvm {
  private ChildJvm() {}

  /** The output of {@code main} run with {@code jvmOptions}; fails the test on a non-zero exit. */
  static String run(Class<?> main, List<String> jvmOptions, String... args) throws IOException,
      InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("--enable-native-access=ALL-UNNAMED");
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(ClassPaths.of(main));
    command.add(main.getName());
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    boolean ended = process.waitFor(120, TimeUnit.SECONDS);
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!ended) {
      process.destroyForcibly();
    }
    assertThat(ended).as("child JVM ended within 120 s; output:\n" + output).isTrue();
    assertThat(process.exitValue()).as("child JVM exit status; output:\n" + output).isZero();
    return output;
  }
}
