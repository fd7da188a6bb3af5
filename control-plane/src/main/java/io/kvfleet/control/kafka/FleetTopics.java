package io.kvfleet.control.kafka;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.events.Topics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

/** Creates the fleet topics, and the dead-letter topic beside them, on a broker (idempotently). */
public final class FleetTopics {
  /** Partitions per fleet topic: keyed by node, so this bounds coordinator parallelism. */
  public static final int PARTITIONS = 3;

  private FleetTopics() {}

  /**
   * Creates every fleet topic that does not exist yet with as many copies as the cluster allows,
   * up to three: one on a single broker, three on a cluster of three or more.
   */
  public static void ensure(String bootstrapServers) {
    int[] brokers = new int[1];
    withAdmin(bootstrapServers, admin -> brokers[0] = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).size());
    ensure(bootstrapServers, (short) Math.clamp(brokers[0], 1, 3));
  }

  /** Creates every fleet topic that does not exist yet, with the given replication factor. */
  public static void ensure(String bootstrapServers, short replicationFactor) {
    ensure(bootstrapServers, replicationFactor, List.of(Topics.NODES, Topics.TRANSFERS, Topics.DEADLETTER));
  }

  /**
   * Creates those of {@code topics} that do not exist yet, with {@link #PARTITIONS} partitions each,
   * {@code min.insync.replicas} one less than the copies (so with three copies, one broker may be
   * down and every acknowledged event is still on two) and kept forever ({@link #config}).
   */
  public static void ensure(String bootstrapServers, short replicationFactor, List<String> topics) {
    var config = config(replicationFactor);
    withAdmin(bootstrapServers, admin -> {
      var existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
      List<NewTopic> missing = topics.stream()
          .filter(t -> !existing.contains(t))
          .map(t -> new NewTopic(t, PARTITIONS, replicationFactor).configs(config))
          .toList();
      if (!missing.isEmpty()) {
        try {
          admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof TopicExistsException)) {
            throw e;
          }
        }
      }
    });
  }

  /**
   * The settings of a fleet topic. Its records are kept forever: the log is the fleet's source of
   * truth, and a coordinator that starts without a snapshot folds it from offset 0. A broker's default
   * retention (seven days) would delete the joins and registrations of every node up longer, and
   * the coordinator's state would lack them ({@code LogGap}); deleting them is the operator's call,
   * with snapshots.
   */
  static Map<String, String> config(short replicationFactor) {
    return Map.of(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Integer.toString(minInSync(replicationFactor)),
        TopicConfig.RETENTION_MS_CONFIG, "-1");
  }

  /** {@code min.insync.replicas} for a topic with {@code replicationFactor} copies. */
  static int minInSync(short replicationFactor) {
    return Math.max(1, replicationFactor - 1);
  }

  /**
   * Waits up to {@code timeout} until {@code brokers} brokers have registered with the cluster (a
   * topic with that many copies cannot be created before), and fails with the count it saw.
   */
  public static void awaitBrokers(String bootstrapServers, int brokers, Duration timeout) {
    long end = System.nanoTime() + timeout.toNanos();
    withAdmin(bootstrapServers, admin -> {
      int seen = 0;
      while (System.nanoTime() < end) {
        seen = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).size();
        if (seen >= brokers) {
          return;
        }
        Thread.sleep(250);
      }
      throw KvfleetException.badInput("only " + seen + " of " + brokers + " brokers joined the cluster at "
          + bootstrapServers + " within " + timeout.toSeconds() + " s: start the others");
    });
  }

  /**
   * Fails with a clear message unless Kafka answers within 10 s and holds the fleet topics,
   * rather than leave a producer waiting for them.
   */
  public static void require(String bootstrapServers) {
    withAdmin(bootstrapServers, admin -> {
      var existing = admin.listTopics(new ListTopicsOptions().timeoutMs(10_000)).names().get(10, TimeUnit.SECONDS);
      var missing = Topics.ALL.stream().filter(t -> !existing.contains(t)).toList();
      if (!missing.isEmpty()) {
        throw KvfleetException.badInput("Kafka at " + bootstrapServers + " has no topic " + String.join(", ", missing)
            + ": start a coordinator or a node (or 'kvfleet kafka'), which create the fleet topics");
      }
    });
  }

  private interface AdminCall {
    void run(Admin admin) throws ExecutionException, TimeoutException, InterruptedException;
  }

  private static void withAdmin(String bootstrapServers, AdminCall call) {
    try (var admin = KafkaClients.admin(bootstrapServers, Map.of(
        AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"))) {
      call.run(admin);
    } catch (ExecutionException e) {
      throw KvfleetException.kafkaUnreachable(bootstrapServers, e.getCause());
    } catch (TimeoutException e) {
      throw KvfleetException.kafkaUnreachable(bootstrapServers, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw KvfleetException.kafkaUnreachable(bootstrapServers, e);
    }
  }
}
