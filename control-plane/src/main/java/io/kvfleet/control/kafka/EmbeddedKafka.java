package io.kvfleet.control.kafka;

import io.kvfleet.control.KvfleetException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A real single-node Kafka broker (KRaft, combined broker and controller) running in this JVM,
 * started from the Maven artifacts. Internal topics use replication factor 1. The same class
 * serves the demo, {@code kvfleet kafka} and the integration tests.
 */
public final class EmbeddedKafka implements AutoCloseable {
  private static final int NODE_ID = 1;
  /** The data folders brokers of this JVM run on. */
  private static final Set<Path> IN_THIS_JVM = ConcurrentHashMap.newKeySet();

  private final Path dataDir;
  private final boolean deleteOnClose;
  private final int brokerPort;
  private final int controllerPort;
  private final boolean portChosen;
  private KafkaRaftServer server;
  /** Held while this broker owns {@link #dataDir}: a second broker on it would wreck the first. */
  private FileChannel lock;

  private EmbeddedKafka(Path dataDir, boolean deleteOnClose, int brokerPort, int controllerPort, boolean portChosen) {
    this.dataDir = dataDir;
    this.deleteOnClose = deleteOnClose;
    this.brokerPort = brokerPort;
    this.controllerPort = controllerPort;
    this.portChosen = portChosen;
  }

  /** Starts a broker with its data in a new temporary folder, deleted on close. */
  public static EmbeddedKafka startInTempDir() {
    try {
      return start(Files.createTempDirectory("kvfleet-kafka-"), true, 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temporary folder for Kafka's data", e);
    }
  }

  /**
   * Starts a broker with its data in {@code dataDir} (formatted on first use, reused after).
   *
   * @param port the client port, or 0 for a free one
   */
  public static EmbeddedKafka start(Path dataDir, boolean deleteOnClose, int port) {
    var kafka = new EmbeddedKafka(dataDir, deleteOnClose, port == 0 ? freePort() : port, freePort(), port != 0);
    kafka.lockDataDir();
    try {
      kafka.startServer();
    } catch (RuntimeException e) {
      kafka.unlockDataDir();
      throw e;
    }
    return kafka;
  }

  /** The {@code bootstrap.servers} value clients use. */
  public String bootstrapServers() {
    return "127.0.0.1:" + brokerPort;
  }

  /** Where the broker keeps its log. */
  public Path dataDir() {
    return dataDir;
  }

  /** Stops the broker (keeping its data) and starts it again on the same port. */
  public void restart() {
    stopServer();
    startServer();
  }

  /** Stops the broker; its data stays so that {@link #restart()} can bring it back. */
  public void stopServer() {
    if (server != null) {
      server.shutdown();
      server.awaitShutdown();
      server = null;
    }
  }

  @Override
  public void close() {
    stopServer();
    unlockDataDir();
    if (deleteOnClose) {
      deleteTree(dataDir);
    }
  }

  private void lockDataDir() {
    // Checked in this JVM first: on Linux, closing a second channel on the lock file would release
    // the lock the first broker holds.
    if (!IN_THIS_JVM.add(dataDir.toAbsolutePath().normalize())) {
      throw inUse();
    }
    try {
      Files.createDirectories(dataDir);
      lock = FileChannel.open(dataDir.resolve("kvfleet-broker.lock"), StandardOpenOption.CREATE,
          StandardOpenOption.WRITE);
      if (lock.tryLock() == null) {
        unlockDataDir();
        throw inUse(); // another process has it
      }
    } catch (IOException e) {
      unlockDataDir();
      throw KvfleetException.kafkaStartFailed("cannot use " + dataDir + " for Kafka's data", e);
    }
  }

  private KvfleetException inUse() {
    return KvfleetException.badInput(dataDir + " is in use by another running broker: stop it first, or choose"
        + " another --data-dir");
  }

  private void unlockDataDir() {
    if (lock != null) {
      try {
        lock.close();
      } catch (IOException e) {
        // closing releases the lock; nothing else to do
      }
      lock = null;
    }
    IN_THIS_JVM.remove(dataDir.toAbsolutePath().normalize());
  }

  private void startServer() {
    var config = new KafkaConfig(brokerProperties(), false);
    formatIfNew(config);
    server = new KafkaRaftServer(config, Time.SYSTEM);
    try {
      server.startup();
    } catch (RuntimeException e) {
      server.shutdown();
      server = null;
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t.getCause() instanceof BindException) { // Kafka's message names the address it could not bind
          throw KvfleetException.badInput("cannot start the broker: " + t.getMessage()
              + (portChosen ? " (choose another --port)" : ""));
        }
      }
      throw e;
    }
  }

  private Map<String, String> brokerProperties() {
    var props = new HashMap<String, String>();
    props.put("process.roles", "broker,controller");
    props.put("node.id", Integer.toString(NODE_ID));
    props.put("controller.quorum.voters", NODE_ID + "@127.0.0.1:" + controllerPort);
    props.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
    props.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
    props.put("controller.listener.names", "CONTROLLER");
    props.put("inter.broker.listener.name", "PLAINTEXT");
    props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    props.put("log.dirs", logDir().toString());
    props.put("offsets.topic.replication.factor", "1");
    props.put("offsets.topic.num.partitions", "3");
    props.put("transaction.state.log.replication.factor", "1");
    props.put("transaction.state.log.min.isr", "1");
    props.put("share.coordinator.state.topic.replication.factor", "1");
    props.put("share.coordinator.state.topic.min.isr", "1");
    props.put("group.initial.rebalance.delay.ms", "0");
    props.put("num.partitions", "3");
    props.put("auto.create.topics.enable", "false");
    return props;
  }

  private void formatIfNew(KafkaConfig config) {
    if (Files.exists(logDir().resolve("meta.properties"))) {
      return;
    }
    try {
      new Formatter()
          .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
          .setNodeId(NODE_ID)
          .setClusterId(Uuid.randomUuid().toString())
          .setDirectories(Set.of(logDir().toString()))
          .setMetadataLogDirectory(logDir().toString())
          .setControllerListenerName("CONTROLLER")
          .setReleaseVersion(MetadataVersion.latestProduction())
          .run();
    } catch (Exception e) {
      throw KvfleetException.kafkaStartFailed("cannot format Kafka's log folder " + logDir(), e);
    }
  }

  private Path logDir() {
    return dataDir.resolve("kraft");
  }

  private static int freePort() {
    try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port on the loopback interface", e);
    }
  }

  private static void deleteTree(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      List<Path> all = paths.sorted(Comparator.reverseOrder()).toList();
      for (Path p : all) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete Kafka's data folder " + root, e);
    }
  }
}
