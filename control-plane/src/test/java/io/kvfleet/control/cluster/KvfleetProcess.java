package io.kvfleet.control.cluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** A {@code kvfleet} command running as its own OS process, with its console captured. */
final class KvfleetProcess implements AutoCloseable {
  /** JVM flags the launcher uses; Hazelcast wants the opens. */
  static final List<String> JVM_FLAGS = List.of("--enable-native-access=ALL-UNNAMED",
      "--sun-misc-unsafe-memory-access=allow", "-Xmx512m",
      "--add-modules", "java.se", "--add-opens", "java.base/java.lang=ALL-UNNAMED",
      "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens", "java.management/sun.management=ALL-UNNAMED",
      "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED",
      "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED");

  private final String name;
  private final Process process;
  private final List<String> lines = new CopyOnWriteArrayList<>();

  private KvfleetProcess(String name, Process process) {
    this.name = name;
    this.process = process;
    Thread.ofPlatform().daemon().name("console-" + name).start(this::drain);
  }

  /** Starts {@code kvfleet <args>} from this module's build output. */
  static KvfleetProcess start(String name, String... args) throws IOException {
    return start(name, java.util.Map.of(), args);
  }

  /** Starts {@code kvfleet <args>} with {@code env} added to this JVM's environment. */
  static KvfleetProcess start(String name, java.util.Map<String, String> env, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.addAll(JVM_FLAGS);
    command.add("-cp");
    command.add("target/classes" + java.io.File.pathSeparator + "target/lib/*");
    command.add("io.kvfleet.control.cli.Kvfleet");
    command.addAll(List.of(args));
    var builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("KVFLEET_LOG", Path.of("target", "it-" + name + ".log").toAbsolutePath().toString());
    builder.environment().putAll(env);
    return new KvfleetProcess(name, builder.start());
  }

  private void drain() {
    try (var reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = reader.readLine()) != null; ) {
        lines.add(line);
      }
    } catch (IOException e) {
      lines.add("(console closed: " + e.getMessage() + ")");
    }
  }

  /** Waits for a console line {@code key=value} and answers the value. */
  String awaitValue(String key, long seconds) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < end) {
      for (String line : lines) {
        if (line.startsWith(key + "=")) {
          return line.substring(key.length() + 1).trim();
        }
      }
      if (!process.isAlive()) {
        throw new AssertionError(name + " exited with " + process.exitValue() + ": " + String.join("\n", lines));
      }
      Thread.sleep(100);
    }
    throw new AssertionError(name + " did not print " + key + " within " + seconds + " s: " + String.join("\n", lines));
  }

  /** Waits for the process to end; answers its exit code. */
  int exitCode(long seconds) throws InterruptedException {
    if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
      throw new AssertionError(name + " still runs after " + seconds + " s: " + String.join("\n", lines));
    }
    return process.exitValue();
  }

  /** What it printed so far. */
  String console() {
    return String.join("\n", lines);
  }

  /** SIGKILL: the process gets no chance to say goodbye. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
