package io.kvfleet.control.bench;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.kafka.KafkaClients;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads every partition of one topic from its end at start, on its own thread (no consumer group,
 * so no rebalance), handing each record to a handler. {@link #start} returns once the positions
 * are fixed, so nothing written after it returns is missed.
 */
final class TopicReader<V> implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TopicReader.class);
  private static final Duration READY_LIMIT = Duration.ofSeconds(60);

  private final KafkaConsumer<String, V> consumer;
  private final CountDownLatch ready = new CountDownLatch(1);
  private final Thread thread;
  private volatile RuntimeException failure;

  private TopicReader(String bootstrapServers, String clientId, String topic, Deserializer<V> values,
      Consumer<ConsumerRecord<String, V>> handler) {
    consumer = KafkaClients.consumer(bootstrapServers, Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        ConsumerConfig.CLIENT_ID_CONFIG, clientId,
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false),
        new StringDeserializer(), values);
    thread = Thread.ofPlatform().name(clientId).daemon().unstarted(() -> loop(clientId, topic, handler));
  }

  /** Starts reading {@code topic} from its current end; returns once reading has begun. */
  static <V> TopicReader<V> start(String bootstrapServers, String clientId, String topic,
      Deserializer<V> values, Consumer<ConsumerRecord<String, V>> handler) throws InterruptedException {
    var reader = new TopicReader<>(bootstrapServers, clientId, topic, values, handler);
    reader.thread.start();
    if (!reader.ready.await(READY_LIMIT.toSeconds(), TimeUnit.SECONDS) || reader.failure != null) {
      reader.close();
      throw KvfleetException.kafkaUnreachable(bootstrapServers, reader.failure != null ? reader.failure
          : new IllegalStateException("no end offsets for " + topic + " within " + READY_LIMIT));
    }
    return reader;
  }

  private void loop(String clientId, String topic, Consumer<ConsumerRecord<String, V>> handler) {
    try (consumer) {
      List<TopicPartition> partitions = partitionsOf(topic);
      consumer.assign(partitions);
      consumer.seekToEnd(partitions);
      partitions.forEach(consumer::position);
      ready.countDown();
      while (!Thread.currentThread().isInterrupted()) {
        for (var record : consumer.poll(Duration.ofMillis(100))) {
          handler.accept(record);
        }
      }
    } catch (WakeupException e) {
      // close() asked us to stop.
    } catch (RuntimeException e) {
      LOG.error("{} stopped reading {}; requests it would have answered stay unanswered", clientId, topic, e);
      failure = e;
      ready.countDown();
    }
  }

  private List<TopicPartition> partitionsOf(String topic) {
    while (true) {
      var infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
      if (infos != null && !infos.isEmpty()) {
        return infos.stream().map(i -> new TopicPartition(i.topic(), i.partition())).toList();
      }
      try {
        Thread.sleep(100); // a topic created a moment ago may not have its metadata yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new WakeupException();
      }
    }
  }

  @Override
  public void close() {
    consumer.wakeup();
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
