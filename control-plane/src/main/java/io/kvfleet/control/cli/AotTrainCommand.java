package io.kvfleet.control.cli;

import io.kvfleet.control.kafka.EmbeddedKafka;
import io.kvfleet.control.kafka.FleetTopics;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;

/**
 * {@code kvfleet aot-train}: the training run of {@code ./kvfleet aot} (JDK 25's ahead-of-time cache,
 * JEP 483/514/515). In one JVM it starts what a fleet's processes start, the way they start it: the
 * {@code coordinator} and {@code node} commands themselves, against a broker, on a
 * clustered EventBus of their own, until both have printed their ready lines; then it exits, and
 * the JVM writes the classes it loaded and linked, and their profiles, to the cache.
 */
@Command(name = "aot-train", hidden = true, description = "The training run of './kvfleet aot'")
final class AotTrainCommand implements Callable<Integer> {
  @picocli.CommandLine.Option(names = "--bootstrap-servers", description = "A broker in another JVM (what './kvfleet"
      + " aot' starts), so the cache holds what a coordinator and an agent load and none of a broker's classes,"
      + " which every start would load and link for nothing (default: a broker embedded in this JVM)")
  String bootstrapServers;

  @Override
  public Integer call() throws Exception {
    var coordinatorReady = new CountDownLatch(1);
    var nodeReady = new CountDownLatch(1);
    PrintStream out = System.out;
    System.setOut(new PrintStream(new Watch(out, coordinatorReady, nodeReady), true, StandardCharsets.UTF_8));
    String bootstrap = bootstrapServers != null ? bootstrapServers : embeddedBroker();
    String cluster = "kvfleet-aot-train-" + ProcessHandle.current().pid();
    int port = freePort();
    String members = "127.0.0.1:" + port + "-" + (port + 9);
    Thread.ofPlatform().daemon().start(() -> Kvfleet.commandLine().execute("coordinator", "--bootstrap-servers",
        bootstrap, "--cluster-name", cluster, "--cluster-port", "" + port, "--cluster-members", members,
        "--id", "aot-coordinator"));
    if (!coordinatorReady.await(180, TimeUnit.SECONDS)) {
      out.println("kvfleet aot-train: the coordinator was not ready in 180 s");
      return 1;
    }
    Thread.ofPlatform().daemon().start(() -> Kvfleet.commandLine().execute("node", "--id", "aot-node",
        "--bootstrap-servers", bootstrap, "--cluster-name", cluster, "--cluster-port", "" + (port + 10),
        "--cluster-members", members));
    if (!nodeReady.await(180, TimeUnit.SECONDS)) {
      out.println("kvfleet aot-train: the node agent was not ready in 180 s");
      return 1;
    }
    out.println("kvfleet aot-train: coordinator and node agent ready; the JVM writes the cache as it exits");
    return 0; // main exits the JVM: the commands' shutdown hooks stop them, then the broker goes with the JVM
  }

  private static String embeddedBroker() throws java.io.IOException {
    var kafka = EmbeddedKafka.startInTempDir();
    FleetTopics.ensure(kafka.bootstrapServers(), (short) 1);
    return kafka.bootstrapServers();
  }

  private static int freePort() throws java.io.IOException {
    try (var probe = new ServerSocket(0)) {
      return Math.min(probe.getLocalPort(), 65535 - 30);
    }
  }

  /** Passes what is printed on and counts down when the ready lines go by. */
  private static final class Watch extends OutputStream {
    private final PrintStream out;
    private final CountDownLatch coordinator;
    private final CountDownLatch node;
    private final StringBuilder line = new StringBuilder();

    Watch(PrintStream out, CountDownLatch coordinator, CountDownLatch node) {
      this.out = out;
      this.coordinator = coordinator;
      this.node = node;
    }

    @Override
    public synchronized void write(int b) {
      out.write(b);
      if (b != '\n') {
        line.append((char) b);
        return;
      }
      if (line.toString().startsWith("kvfleet-coordinator=ready")) {
        coordinator.countDown();
      } else if (line.toString().startsWith("kvfleet-node-api=")) {
        node.countDown();
      }
      line.setLength(0);
    }
  }
}
