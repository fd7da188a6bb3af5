package io.kvfleet.control.kafka;

import io.kvfleet.events.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies records a consumer could not fold to {@link Topics#DEADLETTER}: the record's key and
 * bytes as they were, with headers naming where it was and why ({@link #TOPIC}, {@link #PARTITION},
 * {@link #OFFSET}, {@link #REASON}), keyed {@code topic-partition@offset} so a copy is found again.
 * Thread-safe (Kafka's producer is).
 */
public final class DeadLetters implements AutoCloseable {
  /** Header: the topic the record was in. */
  public static final String TOPIC = "kvfleet.dlq.topic";
  /** Header: its partition, in decimal. */
  public static final String PARTITION = "kvfleet.dlq.partition";
  /** Header: its offset, in decimal. */
  public static final String OFFSET = "kvfleet.dlq.offset";
  /** Header: why it could not be folded. */
  public static final String REASON = "kvfleet.dlq.reason";

  private static final Logger LOG = LoggerFactory.getLogger(DeadLetters.class);
  /** One line per record copied without its value: a writer of junk decides how many. */
  private final io.kvfleet.control.LogSampling cutLogged = new io.kvfleet.control.LogSampling();
  /** How long a record not kept in memory is looked for again in the log before its copy says it is gone. */
  private static final Duration REREAD_WAIT = Duration.ofSeconds(10);
  /** Characters of a key or reason a copy too large for Kafka keeps. */
  static final int KEPT_TEXT = 4_096;

  private final String bootstrapServers;
  private final KafkaProducer<String, byte[]> producer;
  /** Reads again the records whose value was not kept; used on the sender's thread only, made at first use. */
  private KafkaConsumer<byte[], byte[]> rereader;
  /** Sends off the caller's thread: a send may wait for the topic's metadata. */
  private final java.util.concurrent.ExecutorService sender = java.util.concurrent.Executors.newSingleThreadExecutor(
      Thread.ofPlatform().name("kvfleet-deadletter").daemon().factory());

  public DeadLetters(String bootstrapServers, String producerId) {
    this.bootstrapServers = bootstrapServers;
    var config = new java.util.HashMap<>(EventPublisher.producerConfig(bootstrapServers, producerId + "-deadletter"));
    this.producer = KafkaClients.producer(bootstrapServers, config, new StringSerializer(), new ByteArraySerializer());
  }

  /** The key of the copy of the record at {@code offset} of {@code topic}-{@code partition}. */
  public static String keyOf(String topic, int partition, long offset) {
    return topic + "-" + partition + "@" + offset;
  }

  /** Copies a record (its value may be null: a tombstone) with {@code reason}; Kafka's answer is not awaited. */
  public void copy(String topic, int partition, long offset, String key, byte[] value, String reason) {
    sender.execute(() -> send(topic, partition, offset, key, value, reason, true));
  }

  /**
   * Sends a copy; one Kafka refuses as too large (a record near the size limit, plus the copy's
   * headers) is sent again without its value and with its key and reason cut to {@link #KEPT_TEXT}
   * characters, its reason saying so (once: {@code whole} false is that second try), and any
   * other refusal is logged with where the record is: a poison record is never dropped without a
   * word.
   */
  private void send(String topic, int partition, long offset, String key, byte[] value, String reason,
      boolean whole) {
    producer.send(record(topic, partition, offset, key, value, reason), (metadata, failure) -> {
      if (failure == null) {
        return;
      }
      String where = keyOf(topic, partition, offset);
      if (!(failure instanceof RecordTooLargeException) || !whole) {
        LOG.error("poison record {}: its dead-letter copy failed ({}); the record stays in the log at that place",
            where, failure.toString());
        return;
      }
      int bytes = value == null ? 0 : value.length;
      if (cutLogged.next()) {
        LOG.warn("poison record {}: its dead-letter copy is too large for Kafka; copying it without its value{}", where,
            cutLogged.note());
      }
      String smaller = cut(reason) + " (value of " + bytes + " bytes not copied: too large with the copy's headers)";
      try {
        sender.execute(() -> send(topic, partition, offset, cut(key), null, smaller, false));
      } catch (RejectedExecutionException closing) {
        LOG.error("poison record {}: not copied to the dead-letter topic (closing); the record stays in the log at"
            + " that place", where);
      }
    });
  }

  /** {@code text} as a header of a copy that was too large keeps it: at most {@link #KEPT_TEXT} characters. */
  private static String cut(String text) {
    if (text == null || text.length() <= KEPT_TEXT) {
      return text;
    }
    return text.substring(0, KEPT_TEXT) + "... (" + text.length() + " characters)";
  }

  private static ProducerRecord<String, byte[]> record(
      String topic, int partition, long offset, String key, byte[] value, String reason) {
    List<Header> headers = List.of(
        header(TOPIC, topic), header(PARTITION, Integer.toString(partition)), header(OFFSET, Long.toString(offset)),
        header(REASON, reason), header("kvfleet.dlq.key", key == null ? "" : key));
    return new ProducerRecord<>(Topics.DEADLETTER, null, keyOf(topic, partition, offset), value, headers);
  }

  /**
   * Copies the record at {@code offset} of {@code topic}-{@code partition} with {@code reason}, its key and value
   * read again from the log (the caller did not keep them in memory); a record the log no longer holds is copied
   * without a value, its reason saying so. Kafka's answer is not awaited.
   */
  public void copyFromLog(String topic, int partition, long offset, String reason) {
    sender.execute(() -> {
      ConsumerRecord<byte[], byte[]> found;
      String missing = " (value not kept, and no longer in the log)";
      try {
        found = reread(new TopicPartition(topic, partition), offset);
      } catch (RuntimeException e) { // Kafka away or refusing: copy what is known rather than nothing
        found = null;
        missing = " (value not kept, and reading it again failed: " + e + ")";
      }
      if (found == null) {
        if (cutLogged.next()) {
          LOG.warn("poison record {}-{}@{}: its dead-letter copy has no value{}{}", topic, partition, offset, missing,
              cutLogged.note());
        }
      }
      String key = found == null || found.key() == null ? null : new String(found.key(), StandardCharsets.UTF_8);
      send(topic, partition, offset, key, found == null ? null : found.value(),
          found == null ? reason + missing : reason, true);
    });
  }

  private ConsumerRecord<byte[], byte[]> reread(TopicPartition where, long offset) {
    if (rereader == null) {
      rereader = KafkaClients.consumer(bootstrapServers, Map.<String, Object>of(
          ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
          ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
          ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
    var partition = List.of(where);
    if (offset < rereader.beginningOffsets(partition, REREAD_WAIT).getOrDefault(where, 0L)
        || offset >= rereader.endOffsets(partition, REREAD_WAIT).getOrDefault(where, 0L)) {
      return null; // expired away (or never there)
    }
    rereader.assign(partition);
    rereader.seek(where, offset);
    long until = System.nanoTime() + REREAD_WAIT.toNanos();
    while (System.nanoTime() < until) {
      for (var r : rereader.poll(Duration.ofMillis(200)).records(where)) {
        if (r.offset() >= offset) {
          return r.offset() == offset ? r : null; // past it: compacted or expired away
        }
      }
    }
    return null;
  }

  /**
   * The keys of every copy already in the dead-letter topic (read to its end; blocking, up to
   * {@code wait}), so a restarted coordinator does not copy a record twice.
   */
  public static Set<String> copied(String bootstrapServers, Duration wait) {
    Set<String> keys = new HashSet<>();
    try (var consumer = KafkaClients.consumer(bootstrapServers, Map.<String, Object>of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      var partitions = consumer.partitionsFor(Topics.DEADLETTER, wait).stream()
          .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      var ends = consumer.endOffsets(partitions, wait);
      long until = System.nanoTime() + wait.toNanos();
      while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp)) && System.nanoTime() < until) {
        consumer.poll(Duration.ofMillis(200))
            .forEach(r -> keys.add(r.key() == null ? "" : new String(r.key(), StandardCharsets.UTF_8)));
      }
    }
    return keys;
  }

  @Override
  public void close() {
    sender.execute(() -> {
      if (rereader != null) {
        rereader.close();
      }
    });
    sender.shutdown();
    try {
      // a copy read again from the log may take REREAD_WAIT; one not made is made by the next coordinator
      if (!sender.awaitTermination(REREAD_WAIT.toSeconds() + 10, java.util.concurrent.TimeUnit.SECONDS)) {
        sender.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    producer.close(Duration.ofSeconds(10));
  }

  private static Header header(String name, String value) {
    return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
  }
}
