package io.kvfleet.engine.bench;

import io.kvfleet.engine.RemoteKey;
import io.kvfleet.engine.WorkerAddress;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A {@link TargetProcess} in a child JVM: the same java binary and class path as this process,
 * with native access enabled. Closing it asks the child to quit and waits for it.
 */
public final class ChildTarget implements AutoCloseable {
  private final Process process;
  private final BufferedReader out;
  private final PrintStream in;
  private final WorkerAddress address;
  private final RemoteKey key;

  private ChildTarget(Process process, BufferedReader out, PrintStream in, WorkerAddress address,
      RemoteKey key) {
    this.process = process;
    this.out = out;
    this.in = in;
    this.address = address;
    this.key = key;
  }

  /**
   * Starts a target serving {@code bytes} bytes through {@code backend}; {@code transports} is
   * UCX_TLS ("" for UCX's default); {@code busyPoll} spins its progress thread. {@code env} adds
   * environment variables for the child.
   */
  public static ChildTarget start(String backend, long bytes, String transports, boolean busyPoll,
      Map<String, String> env) {
    List<String> command = new ArrayList<>(List.of(javaBinary(), "--enable-native-access=ALL-UNNAMED",
        "-Xmx256m", "-cp", System.getProperty("java.class.path"), TargetProcess.class.getName(),
        backend, Long.toString(bytes), transports.isEmpty() ? "-" : transports,
        busyPoll ? "busy" : "event"));
    ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
    builder.environment().putAll(env);
    try {
      Process process = builder.start();
      BufferedReader out = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
      PrintStream in = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
      String ready = out.readLine();
      if (ready == null || !ready.startsWith("READY ")) {
        process.destroyForcibly();
        throw new IllegalStateException("the target process did not start: " + ready);
      }
      String[] words = ready.split(" ");
      return new ChildTarget(process, out, in, WorkerAddress.fromBase64(words[1]),
          RemoteKey.fromBase64(words[2]));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the target process: " + command, e);
    }
  }

  /** The child engine's worker address, as it exported it. */
  public WorkerAddress address() {
    return address;
  }

  /** The child's registered region, as it exported it. */
  public RemoteKey key() {
    return key;
  }

  public long pid() {
    return process.pid();
  }

  /** CRC-32C of a slice of the child's region, computed by the child. */
  public String crc(long offset, long length) {
    return ask("CRC " + offset + " " + length, "CRC ");
  }

  /** Fills the child's region with {@link Patterns#fill} of {@code seed}. */
  public void fill(long seed) {
    ask("FILL " + seed, "OK");
  }

  private String ask(String command, String answerPrefix) {
    in.println(command);
    try {
      String answer = out.readLine();
      if (answer == null || !answer.startsWith(answerPrefix)) {
        throw new IllegalStateException("the target answered " + answer + " to " + command);
      }
      return answer.substring(answerPrefix.length()).trim();
    } catch (IOException e) {
      throw new UncheckedIOException("the target process went away", e);
    }
  }

  /** Asks the child to quit; kills it if it has not within 10 s. */
  @Override
  public void close() {
    in.println("QUIT");
    in.close();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /** Kills the child at once (for tests of a peer that dies). */
  public void kill() {
    process.destroyForcibly();
    try {
      process.waitFor(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static String javaBinary() {
    return ProcessHandle.current().info().command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }
}
