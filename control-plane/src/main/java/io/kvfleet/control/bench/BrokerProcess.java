package io.kvfleet.control.bench;

import io.kvfleet.control.KvfleetException;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The bench's broker in its own JVM, as a fleet runs one: {@code kvfleet kafka} started with this
 * JVM's java, class path and flags (less its logging, compilation and AOT-recording flags, which
 * belong to the bench), so the bench's garbage collector and JIT never stop or slow the broker.
 */
public final class BrokerProcess implements AutoCloseable {
  private static final String READY = "kvfleet-kafka=";
  private static final Duration START_LIMIT = Duration.ofSeconds(120);

  private final Process process;
  private final String bootstrapServers;
  private final Path output;

  private BrokerProcess(Process process, String bootstrapServers, Path output) {
    this.process = process;
    this.bootstrapServers = bootstrapServers;
    this.output = output;
  }

  /** Starts the broker and returns once it printed its bootstrap servers; what it prints goes to a file. */
  public static BrokerProcess start() throws IOException {
    var output = Files.createTempFile("kvfleet-bench-broker-", ".out");
    var builder = new ProcessBuilder(command()).redirectErrorStream(true).redirectOutput(output.toFile());
    builder.environment().remove("JAVA_TOOL_OPTIONS"); // the bench's diagnostics are not the broker's
    var process = builder.start();
    long end = System.nanoTime() + START_LIMIT.toNanos();
    while (System.nanoTime() < end && process.isAlive()) {
      for (String line : Files.readAllLines(output, StandardCharsets.UTF_8)) {
        if (line.startsWith(READY)) {
          return new BrokerProcess(process, line.substring(READY.length()).trim(), output);
        }
      }
      sleep();
    }
    process.destroyForcibly();
    throw KvfleetException.benchFailed("the bench's broker (kvfleet kafka in its own JVM) did not print its"
        + " bootstrap servers; it printed: " + Files.readString(output, StandardCharsets.UTF_8), null);
  }

  private static void sleep() throws IOException {
    try {
      Thread.sleep(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while the broker started", e);
    }
  }

  /** The file the broker's output goes to (its log is where its own output says). */
  public Path output() {
    return output;
  }

  /** The broker's address. */
  public String bootstrapServers() {
    return bootstrapServers;
  }

  /** The broker's process id. */
  public long pid() {
    return process.pid();
  }

  /** Has the bench report this broker's CPU beside its own JVM's in every phase from now on. */
  public static void watch(BrokerProcess broker) {
    CpuMeter.watchBroker(broker);
  }

  /** CPU the broker's JVM used so far, in nanoseconds, or -1 where the platform does not say. */
  long cpuNanos() {
    return process.toHandle().info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
  }

  /** The command line: this JVM's java and flags, its class path, {@code kvfleet kafka}. */
  static List<String> command() {
    var command = new ArrayList<String>();
    command.add(ProcessHandle.current().info().command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    for (String flag : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (kept(flag)) {
        command.add(flag);
      }
    }
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.kvfleet.control.cli.Kvfleet", "kafka"));
    return command;
  }

  /** Whether the broker gets this flag of the bench's JVM. */
  static boolean kept(String flag) {
    return !(flag.startsWith("-Xlog") || flag.startsWith("-XX:AOT") || flag.startsWith("-XX:+PrintCompilation")
        || flag.startsWith("-XX:+UnlockDiagnosticVMOptions") || flag.startsWith("-XX:+LogCompilation")
        || flag.startsWith("-XX:LogFile") || flag.startsWith("-agent") || flag.startsWith("-javaagent"));
  }

  /** Stops the broker (its shutdown hook closes it) and waits for it to end. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
