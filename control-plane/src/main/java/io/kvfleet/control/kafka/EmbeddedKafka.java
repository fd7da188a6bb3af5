package io.kvfleet.control.kafka;

import io.kvfleet.control.KvfleetException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.BindException;
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
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A real Kafka broker (KRaft, combined broker and controller) running in this JVM, started from the
 * Maven artifacts: a single-node broker, or one member of a local {@link KraftQuorum} of several
 * (each in its own process, as {@code kvfleet kafka --node-id N --controller-quorum ...}). Internal
 * topics get the quorum's replication factor (1 alone, up to 3 in a cluster). The same class serves
 * the demo, {@code kvfleet kafka} and the integration tests.
 */
public final class EmbeddedKafka implements AutoCloseable {
  /** The data folders brokers of this JVM run on. */
  private static final Set<Path> IN_THIS_JVM = ConcurrentHashMap.newKeySet();

  private final Path dataDir;
  private final boolean deleteOnClose;
  private final int brokerPort;
  private final KraftQuorum quorum;
  private final boolean portChosen;
  private KafkaRaftServer server;
  /** TLS, SCRAM users and ACLs, or null: PLAINTEXT, anyone may do anything. */
  private BrokerSecurity security;
  /** Held while this broker owns {@link #dataDir}: a second broker on it would wreck the first. */
  private FileChannel lock;

  private EmbeddedKafka(Path dataDir, boolean deleteOnClose, int brokerPort, KraftQuorum quorum, boolean portChosen) {
    this.dataDir = dataDir;
    this.deleteOnClose = deleteOnClose;
    this.brokerPort = brokerPort;
    this.quorum = quorum;
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
    int[] free = io.kvfleet.control.cluster.FreePorts.distinct(2);
    return start(new EmbeddedKafka(dataDir, deleteOnClose, port == 0 ? free[0] : port,
        KraftQuorum.single(port == free[1] ? free[0] : free[1]), port != 0));
  }

  /**
   * Starts a single-node broker whose client listener is SASL_SSL (SCRAM-SHA-512) with the KRaft
   * {@code StandardAuthorizer} and the fleet's ACLs per role ({@link FleetAcls}); its admin's client
   * properties are {@link KafkaClients#use used} for its address in this process.
   */
  public static EmbeddedKafka startSecured(Path dataDir, boolean deleteOnClose, int port, BrokerSecurity security) {
    int[] free = io.kvfleet.control.cluster.FreePorts.distinct(2);
    var kafka = new EmbeddedKafka(dataDir, deleteOnClose, port == 0 ? free[0] : port,
        KraftQuorum.single(port == free[1] ? free[0] : free[1]), port != 0);
    kafka.security = security;
    return start(kafka);
  }

  /** Whether the client listener is SASL_SSL with ACLs. */
  public boolean secured() {
    return security != null;
  }

  /**
   * Starts this process's member of {@code quorum}, with its data in {@code dataDir} (formatted on
   * first use with the quorum's cluster id, reused after) and clients on {@code port}.
   */
  public static EmbeddedKafka startMember(Path dataDir, int port, KraftQuorum quorum) {
    if (port == quorum.self().port()) {
      throw KvfleetException.badInput("the client port " + port + " is node " + quorum.nodeId()
          + "'s controller port in the quorum: choose another --port");
    }
    return start(new EmbeddedKafka(dataDir, false, port, quorum, true));
  }

  private static EmbeddedKafka start(EmbeddedKafka kafka) {
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
    return host() + ":" + brokerPort;
  }

  /** The quorum this broker is a member of (a quorum of one when it runs alone). */
  public KraftQuorum quorum() {
    return quorum;
  }

  private String host() {
    return quorum.self().host();
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
    if (security != null) {
      KafkaClients.use(bootstrapServers(), security.clientConfig(KafkaRole.ADMIN.user(),
          security.password(KafkaRole.ADMIN.user())));
      grantFleetAcls();
    }
  }

  private void grantFleetAcls() {
    try (var admin = KafkaClients.admin(bootstrapServers(), Map.of("default.api.timeout.ms", "60000"))) {
      admin.createAcls(FleetAcls.all()).all().get(60, java.util.concurrent.TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      throw KvfleetException.kafkaStartFailed("cannot create the fleet's ACLs", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw KvfleetException.kafkaStartFailed("interrupted while creating the fleet's ACLs", e);
    }
  }

  private Map<String, String> brokerProperties() {
    var props = new HashMap<String, String>();
    String host = host();
    String replicas = Short.toString(quorum.replicationFactor());
    String minIsr = Integer.toString(quorum.minInSyncReplicas());
    props.put("process.roles", "broker,controller");
    props.put("node.id", Integer.toString(quorum.nodeId()));
    props.put("controller.quorum.voters", quorum.votersText());
    String client = security == null ? "PLAINTEXT" : "CLIENT";
    props.put("listeners", client + "://" + host + ":" + brokerPort + ",CONTROLLER://" + host + ":" + quorum.self().port());
    props.put("advertised.listeners", client + "://" + host + ":" + brokerPort);
    props.put("controller.listener.names", "CONTROLLER");
    if (security == null) {
      props.put("inter.broker.listener.name", "PLAINTEXT");
      props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    } else {
      props.putAll(security.brokerConfig());
    }
    props.put("log.dirs", logDir().toString());
    props.put("offsets.topic.replication.factor", replicas);
    props.put("offsets.topic.num.partitions", "3");
    props.put("transaction.state.log.replication.factor", replicas);
    props.put("transaction.state.log.min.isr", minIsr);
    props.put("share.coordinator.state.topic.replication.factor", replicas);
    props.put("share.coordinator.state.topic.min.isr", minIsr);
    props.put("default.replication.factor", replicas);
    props.put("min.insync.replicas", minIsr);
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
          .setNodeId(quorum.nodeId())
          .setClusterId(quorum.clusterId())
          .setDirectories(Set.of(logDir().toString()))
          .setMetadataLogDirectory(logDir().toString())
          .setControllerListenerName("CONTROLLER")
          .setReleaseVersion(MetadataVersion.latestProduction())
          .setScramArguments(security == null ? List.of() : security.scramArguments())
          .run();
    } catch (Exception e) {
      throw KvfleetException.kafkaStartFailed("cannot format Kafka's log folder " + logDir(), e);
    }
  }

  private Path logDir() {
    return dataDir.resolve("kraft");
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
