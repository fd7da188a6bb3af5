package io.kvfleet.control.kafka;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.events.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Creates the fleet topics, and the dead-letter topic beside them, on a broker (idempotently). */
public final class FleetTopics {
  /** Partitions per fleet topic: keyed by node, so this bounds coordinator parallelism. */
  public static final int PARTITIONS = 3;

  private static final Logger LOG = LoggerFactory.getLogger(FleetTopics.class);
  private static final String LOG_APPEND_TIME = "LogAppendTime";

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
    ensure(bootstrapServers, replicationFactor, topics, config(replicationFactor));
  }

  /**
   * {@link #ensure(String, short)} for a log whose records carry their own times: the benchmarks'
   * and tests' synthetic logs, hours of a fleet's life written in seconds. Such topics keep each
   * writer's stamp ({@code CreateTime}) instead of the broker's clock; a fleet's must not
   * ({@link #config}).
   */
  public static void ensureKeepingWritersStamps(String bootstrapServers, short replicationFactor) {
    var config = new HashMap<>(config(replicationFactor));
    config.put(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "CreateTime");
    ensure(bootstrapServers, replicationFactor, List.of(Topics.NODES, Topics.TRANSFERS, Topics.DEADLETTER),
        Map.copyOf(config));
  }

  private static void ensure(String bootstrapServers, short replicationFactor, List<String> topics,
      Map<String, String> config) {
    withAdmin(bootstrapServers, admin -> {
      var existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
      if (LOG_APPEND_TIME.equals(config.get(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG))) {
        for (String topic : writersStamped(admin, topics.stream().filter(existing::contains).toList())) {
          LOG.warn("{} keeps its writers' record stamps ({}=CreateTime): one record stamped ahead hides the later"
              + " records of its partition from a replay until a time before it (docs/FLEET.md). Give it the"
              + " broker's: kafka-configs.sh --bootstrap-server {} --alter --entity-type topics --entity-name {}"
              + " --add-config {}={}", topic, TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, bootstrapServers, topic,
              TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, LOG_APPEND_TIME);
        }
      }
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
   * with snapshots. The broker stamps each record with its own clock as it appends it
   * ({@code LogAppendTime}): replay orders and cuts the log by those stamps ({@code --until}), and a
   * writer's own stamp, up to an hour ahead, would have hidden every later record of its partition
   * from a replay until a time before it ({@code WritersStampsIT}).
   */
  static Map<String, String> config(short replicationFactor) {
    return Map.of(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Integer.toString(minInSync(replicationFactor)),
        TopicConfig.RETENTION_MS_CONFIG, "-1", TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, LOG_APPEND_TIME);
  }

  /**
   * The fleet topics (and the dead-letter topic) whose records keep their writers' stamps: made before
   * kvfleet stamped them with the broker's clock, or by hand. Empty when the user may not read topic
   * settings (a secured cluster's roles need not).
   */
  public static List<String> writersStamped(String bootstrapServers) {
    List<String> found = new ArrayList<>();
    withAdmin(bootstrapServers, admin -> {
      var existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
      found.addAll(writersStamped(admin, List.of(Topics.NODES, Topics.TRANSFERS, Topics.DEADLETTER).stream()
          .filter(existing::contains).toList()));
    });
    return found;
  }

  private static List<String> writersStamped(Admin admin, List<String> topics)
      throws ExecutionException, TimeoutException, InterruptedException {
    if (topics.isEmpty()) {
      return List.of();
    }
    try {
      var configs = admin.describeConfigs(topics.stream()
          .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t)).toList()).all().get(30, TimeUnit.SECONDS);
      return configs.entrySet().stream()
          .filter(e -> !LOG_APPEND_TIME.equals(Optional.ofNullable(e.getValue()
              .get(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG)).map(ConfigEntry::value).orElse(null)))
          .map(e -> e.getKey().name()).sorted().toList();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof AuthorizationException) {
        return List.of();
      }
      throw e;
    }
  }

  /**
   * Kafka's id of each of {@code topics} (a new one for every topic made, so a topic recreated under
   * its name, or the same name on another cluster, has another): what ties a coordinator's snapshot
   * to the log it folded.
   */
  public static java.util.SortedMap<String, String> ids(String bootstrapServers, List<String> topics) {
    var ids = new java.util.TreeMap<String, String>();
    withAdmin(bootstrapServers, admin -> admin.describeTopics(topics).allTopicNames().get(30, TimeUnit.SECONDS)
        .forEach((name, description) -> ids.put(name, description.topicId().toString())));
    return ids;
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
