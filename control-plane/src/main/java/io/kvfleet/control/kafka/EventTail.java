package io.kvfleet.control.kafka;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EnvelopeDeserializer;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads fleet topics from the beginning on its own thread and hands every record, decoded or
 * malformed, to a callback. Used by {@code kvfleet tail}, the demo's console and tests.
 */
public final class EventTail implements AutoCloseable {
  private final KafkaConsumer<String, Decoded> consumer;
  private final Thread thread;
  private long before;

  private EventTail(String bootstrapServers, Consumer<ConsumerRecord<String, Decoded>> sink) {
    this.consumer = KafkaClients.consumer(bootstrapServers, Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        ConsumerConfig.GROUP_ID_CONFIG, "kvfleet-tail-" + UUID.randomUUID(),
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false),
        new StringDeserializer(), new EnvelopeDeserializer());
    this.thread = Thread.ofPlatform().name("kvfleet-tail").daemon().unstarted(() -> loop(sink));
  }

  /** Starts reading {@code topics} from their beginning. */
  public static EventTail start(String bootstrapServers, Collection<String> topics,
      Consumer<ConsumerRecord<String, Decoded>> sink) {
    var tail = new EventTail(bootstrapServers, sink);
    tail.consumer.subscribe(topics);
    tail.thread.start();
    return tail;
  }

  /**
   * Starts reading {@code topics} from where they end now: every record written after this returns
   * is read, none written before (a demo on a broker that kept an earlier run's log shows this run).
   */
  public static EventTail startFromNow(String bootstrapServers, Collection<String> topics,
      Consumer<ConsumerRecord<String, Decoded>> sink) {
    var tail = new EventTail(bootstrapServers, sink);
    try {
      var partitions = topics.stream().flatMap(t -> tail.consumer.partitionsFor(t, Duration.ofSeconds(30)).stream())
          .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
      tail.consumer.assign(partitions);
      tail.consumer.seekToEnd(partitions);
      // Fixes the positions now, before anything else is written.
      tail.before = partitions.stream().mapToLong(p -> tail.consumer.position(p, Duration.ofSeconds(30))).sum();
    } catch (KafkaException e) {
      tail.consumer.close();
      throw KvfleetException.kafkaUnreachable(bootstrapServers, e);
    }
    tail.thread.start();
    return tail;
  }

  /** Starts reading each partition of {@code from} at its offset there, and follows. */
  public static EventTail startAt(String bootstrapServers, Map<TopicPartition, Long> from,
      Consumer<ConsumerRecord<String, Decoded>> sink) {
    var tail = new EventTail(bootstrapServers, sink);
    tail.consumer.assign(from.keySet());
    from.forEach(tail.consumer::seek);
    tail.thread.start();
    return tail;
  }

  /** How many records the topics held before a tail {@link #startFromNow started from now}; 0 for others. */
  public long recordsBefore() {
    return before;
  }

  private void loop(Consumer<ConsumerRecord<String, Decoded>> sink) {
    try (consumer) {
      while (!Thread.currentThread().isInterrupted()) {
        for (var record : consumer.poll(Duration.ofMillis(200))) {
          sink.accept(record);
        }
      }
    } catch (WakeupException e) {
      // close() asked us to stop.
    }
  }

  @Override
  public void close() {
    consumer.wakeup();
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
