package io.kvfleet.control.chaos;

import io.kvfleet.control.KvfleetException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A {@code kvfleet} command running as its own OS process, its console captured, its signals ours
 * to send: the fault suite's fleet, and the process tests'.
 */
public final class Child implements AutoCloseable {
  /** The flags the launcher gives the JVM. */
  private static final List<String> JVM_FLAGS = List.of("--enable-native-access=ALL-UNNAMED",
      "--sun-misc-unsafe-memory-access=allow", "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
      "--add-modules", "java.se", "--add-opens", "java.base/java.lang=ALL-UNNAMED",
      "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens", "java.management/sun.management=ALL-UNNAMED",
      "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED",
      "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED");

  private final String name;
  private final Process process;
  private final List<String> lines = new CopyOnWriteArrayList<>();

  private Child(String name, Process process) {
    this.name = name;
    this.process = process;
    Thread.ofPlatform().daemon().name("console-" + name).start(this::drain);
  }

  /** Starts {@code kvfleet <args>} with {@code classpath}, its Kafka and Vert.x log in {@code logDir}. */
  public static Child start(String name, String classpath, Path logDir, List<String> args) {
    return start(name, classpath, logDir, args, java.util.Map.of());
  }

  /** {@link #start(String, String, Path, List)} with {@code env} added to this JVM's environment. */
  public static Child start(String name, String classpath, Path logDir, List<String> args,
      java.util.Map<String, String> env) {
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.addAll(JVM_FLAGS);
    command.addAll(List.of("-cp", classpath, "io.kvfleet.control.cli.Kvfleet"));
    command.addAll(args);
    var builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("KVFLEET_LOG", logDir.resolve(name + ".log").toAbsolutePath().toString());
    builder.environment().putAll(env);
    try {
      return new Child(name, builder.start());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name, e);
    }
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

  /** The process id. */
  public long pid() {
    return process.pid();
  }

  @Override
  public String toString() {
    return name;
  }

  /** Waits for a console line {@code key=value} and answers the value. */
  public String awaitValue(String key, Duration timeout) {
    long end = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < end) {
      for (String line : lines) {
        if (line.startsWith(key + "=")) {
          return line.substring(key.length() + 1).trim();
        }
      }
      if (!process.isAlive()) {
        throw KvfleetException.badInput(name + " exited with " + process.exitValue() + ": " + tail());
      }
      sleep(Duration.ofMillis(50));
    }
    throw KvfleetException.badInput(name + " did not print " + key + " within " + timeout.toSeconds() + " s: " + tail());
  }

  /** SIGKILL: the process gets no chance to say goodbye. */
  public void kill() {
    process.destroyForcibly();
    try {
      process.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** SIGSTOP: the process stops where it is, sockets open, until {@link #resume}. */
  public void pause() {
    signal("STOP");
  }

  /** SIGCONT after {@link #pause}. */
  public void resume() {
    signal("CONT");
  }

  private void signal(String signal) {
    try {
      var kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
      if (kill.waitFor() != 0) {
        throw KvfleetException.badInput("kill -" + signal + " " + process.pid() + " failed for " + name);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot signal " + name, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Waits up to {@code timeout} for it to end by itself and answers its exit code. */
  public int exitCode(Duration timeout) {
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw KvfleetException.badInput(name + " still runs after " + timeout.toSeconds() + " s: " + tail());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw KvfleetException.badInput("interrupted");
    }
    return process.exitValue();
  }

  /** What it printed so far. */
  public String console() {
    return String.join("\n", lines);
  }

  /** The last lines it printed, for a message. */
  String tail() {
    int from = Math.max(0, lines.size() - 15);
    return String.join("\n", lines.subList(from, lines.size()));
  }

  /** SIGTERM, then SIGKILL if it has not ended within 30 s (a paused process is resumed first). */
  @Override
  public void close() {
    if (!process.isAlive()) {
      return;
    }
    try {
      resume();
    } catch (RuntimeException e) {
      // it ended between the check and the signal: nothing to resume
    }
    process.destroy();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        kill();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      kill();
    }
  }

  static void sleep(Duration duration) {
    try {
      Thread.sleep(duration);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw KvfleetException.badInput("interrupted");
    }
  }
}
