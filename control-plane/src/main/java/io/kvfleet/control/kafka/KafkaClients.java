package io.kvfleet.control.kafka;

import io.kvfleet.control.KvfleetException;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The one place that builds Kafka clients: every producer, consumer and admin client of the control
 * plane is made here (LayeringTest checks that no other class makes one), from the caller's own
 * settings plus the client properties given for its cluster ({@code --kafka-config FILE}, Kafka's
 * {@code client.properties} convention: {@code security.protocol}, {@code sasl.*}, {@code ssl.*}).
 *
 * <p>The properties are bound to the cluster's {@code bootstrap.servers} string, once per process,
 * so a process that talks to several clusters (a test, a bench) keeps them apart and no signature
 * from a command to its clients has to carry them. The caller's settings win over the file's: they
 * are what kvfleet's guarantees rest on (acks, idempotence, isolation, groups).
 */
public final class KafkaClients {
  private static final Map<String, Map<String, String>> PROPERTIES = new ConcurrentHashMap<>();

  private KafkaClients() {}

  /** Every client of {@code bootstrapServers} made from now on in this process gets {@code properties}. */
  public static void use(String bootstrapServers, Map<String, String> properties) {
    var copy = new HashMap<>(properties);
    copy.remove(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
    PROPERTIES.put(bootstrapServers, Map.copyOf(copy));
  }

  /** Reads a {@code client.properties} file and {@link #use}s it for {@code bootstrapServers}. */
  public static void use(String bootstrapServers, Path file) {
    use(bootstrapServers, read(file));
  }

  /** The client properties given for {@code bootstrapServers} (empty: PLAINTEXT, no credentials). */
  public static Map<String, String> properties(String bootstrapServers) {
    return PROPERTIES.getOrDefault(bootstrapServers, Map.of());
  }

  /** Whether clients of {@code bootstrapServers} were given any properties (a secured cluster, usually). */
  public static boolean configured(String bootstrapServers) {
    return !properties(bootstrapServers).isEmpty();
  }

  /** The full configuration of a client of {@code bootstrapServers}: the file's properties, then {@code settings}. */
  public static Map<String, Object> config(String bootstrapServers, Map<String, ?> settings) {
    var config = new HashMap<String, Object>(properties(bootstrapServers));
    config.putAll(settings);
    config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    return config;
  }

  /** A producer of {@code bootstrapServers}. */
  public static <K, V> KafkaProducer<K, V> producer(String bootstrapServers, Map<String, ?> settings,
      Serializer<K> keys, Serializer<V> values) {
    return new KafkaProducer<>(config(bootstrapServers, settings), keys, values);
  }

  /** A consumer of {@code bootstrapServers}. */
  public static <K, V> KafkaConsumer<K, V> consumer(String bootstrapServers, Map<String, ?> settings,
      Deserializer<K> keys, Deserializer<V> values) {
    return new KafkaConsumer<>(config(bootstrapServers, settings), keys, values);
  }

  /** An admin client of {@code bootstrapServers}. */
  public static Admin admin(String bootstrapServers, Map<String, ?> settings) {
    return Admin.create(config(bootstrapServers, settings));
  }

  /**
   * A Vert.x consumer of {@code bootstrapServers}, built on a worker thread and handed back on the
   * caller's context. Kafka's client constructor blocks (a SASL login, TLS key stores, DNS: 9.8 s
   * seen with SASL_SSL), so it must not run on an event loop; the wrapper binds to the caller's context.
   */
  public static <K, V> io.vertx.core.Future<io.vertx.kafka.client.consumer.KafkaConsumer<K, V>> vertxConsumer(
      io.vertx.core.Vertx vertx, String bootstrapServers, Map<String, String> settings, Deserializer<K> keys,
      Deserializer<V> values) {
    return vertxConsumer(vertx, bootstrapServers, settings, keys, values, UnaryOperator.identity());
  }

  /**
   * {@link #vertxConsumer}, whose group rebalances go through {@code rebalance}: Kafka calls the
   * listener it returns on its polling thread, and a member's revocation holds the rebalance until
   * that call returns (Vert.x's own listener only hands the news to the caller's context).
   */
  public static <K, V> io.vertx.core.Future<io.vertx.kafka.client.consumer.KafkaConsumer<K, V>> vertxConsumer(
      io.vertx.core.Vertx vertx, String bootstrapServers, Map<String, String> settings, Deserializer<K> keys,
      Deserializer<V> values, UnaryOperator<ConsumerRebalanceListener> rebalance) {
    return vertx.executeBlocking(() -> new Rebalancing<>(config(bootstrapServers, settings), keys, values, rebalance),
            false)
        .map(made -> io.vertx.kafka.client.consumer.KafkaConsumer.create(vertx, made));
  }

  /** A consumer whose subscriptions' rebalance listener is the caller's wrapping of the one given. */
  private static final class Rebalancing<K, V> extends KafkaConsumer<K, V> {
    private final UnaryOperator<ConsumerRebalanceListener> rebalance;

    Rebalancing(Map<String, Object> config, Deserializer<K> keys, Deserializer<V> values,
        UnaryOperator<ConsumerRebalanceListener> rebalance) {
      super(config, keys, values);
      this.rebalance = rebalance;
    }

    @Override
    public void subscribe(java.util.Collection<String> topics, ConsumerRebalanceListener listener) {
      super.subscribe(topics, rebalance.apply(listener));
    }

    @Override
    public void subscribe(java.util.regex.Pattern pattern, ConsumerRebalanceListener listener) {
      super.subscribe(pattern, rebalance.apply(listener));
    }
  }

  static Map<String, String> read(Path file) {
    var properties = new Properties();
    try (Reader in = Files.newBufferedReader(file)) {
      properties.load(in);
    } catch (NoSuchFileException e) {
      throw KvfleetException.badInput("--kafka-config " + file + ": no such file");
    } catch (IOException e) {
      throw KvfleetException.badInput("--kafka-config " + file + ": cannot read it: " + e.getMessage());
    }
    var map = new HashMap<String, String>();
    properties.stringPropertyNames().forEach(name -> map.put(name, properties.getProperty(name).trim()));
    return map;
  }
}
