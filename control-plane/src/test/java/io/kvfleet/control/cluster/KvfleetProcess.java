package io.kvfleet.control.cluster;

import io.kvfleet.control.chaos.Child;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** A {@code kvfleet} command running as its own OS process from this module's build output ({@link Child}). */
final class KvfleetProcess implements AutoCloseable {
  private final Child child;

  private KvfleetProcess(Child child) {
    this.child = child;
  }

  /** Starts {@code kvfleet <args>}; its Kafka and Vert.x log go to {@code target/it-<name>.log}. */
  static KvfleetProcess start(String name, String... args) {
    return start(name, Map.of(), args);
  }

  /** Starts {@code kvfleet <args>} with {@code env} added to this JVM's environment. */
  static KvfleetProcess start(String name, Map<String, String> env, String... args) {
    return new KvfleetProcess(Child.start("it-" + name, "target/classes" + File.pathSeparator + "target/lib/*",
        Path.of("target"), List.of(args), env));
  }

  /** Waits for a console line {@code key=value} and answers the value. */
  String awaitValue(String key, long seconds) {
    return child.awaitValue(key, Duration.ofSeconds(seconds));
  }

  /** The bearer token of this node agent's API, from the file it printed at start. */
  String apiToken() {
    try {
      return java.nio.file.Files.readString(Path.of(awaitValue("kvfleet-node-api-token-file", 10))).strip();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("cannot read the API token of " + child, e);
    }
  }

  /** Waits up to {@code seconds} for it to end by itself and answers its exit code. */
  int exitCode(long seconds) {
    return child.exitCode(Duration.ofSeconds(seconds));
  }

  /** Its operating-system process id. */
  long pid() {
    return child.pid();
  }

  /** What it printed so far. */
  String console() {
    return child.console();
  }

  /** SIGKILL: the process gets no chance to say goodbye. */
  void kill() {
    child.kill();
  }

  @Override
  public void close() {
    child.close();
  }
}
