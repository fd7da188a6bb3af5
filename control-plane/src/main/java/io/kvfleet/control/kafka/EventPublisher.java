package io.kvfleet.control.kafka;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.EnvelopeSerializer;
import io.kvfleet.events.trust.FleetKey;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Writes one producer's events to Kafka: wraps each in an envelope with the producer's epoch and
 * next sequence number and sends it durably (idempotent producer, {@code acks=all}).
 *
 * <p>Never blocks its caller: events are numbered in call order and handed to one sending thread
 * through a bounded buffer. While Kafka is unreachable they wait there, and in the producer, and
 * go out in order when it returns; the idempotent producer keeps retries from duplicating them.
 * When {@code capacity} events are waiting, {@link #publish} refuses at once with a clear error
 * instead of dropping anything.
 */
public final class EventPublisher implements AutoCloseable {
  /** Events that may wait for Kafka before new ones are refused. */
  public static final int DEFAULT_CAPACITY = 10_000;

  private final KafkaProducer<String, Envelope> producer;
  private final ThreadPoolExecutor sender;
  private final String producerId;
  private final long epoch;
  private final Clock clock;
  private final int capacity;
  private final String bootstrapServers;
  private final AtomicInteger waiting = new AtomicInteger();
  private final Optional<FleetKey> key;
  private long sequence;

  public EventPublisher(String bootstrapServers, String producerId, long epoch, Clock clock) {
    this(bootstrapServers, producerId, epoch, clock, DEFAULT_CAPACITY);
  }

  public EventPublisher(String bootstrapServers, String producerId, long epoch, Clock clock, int capacity) {
    this(bootstrapServers, producerId, epoch, clock, capacity, Optional.empty());
  }

  /** A publisher that signs every event with {@code key} when present ({@code keyid} and {@code signature}). */
  public EventPublisher(String bootstrapServers, String producerId, long epoch, Clock clock, int capacity,
      Optional<FleetKey> key) {
    this(bootstrapServers, producerId, epoch, clock, capacity, key, Map.of());
  }

  /** As above, with Kafka producer settings of its own over the fleet's (a test's slow Kafka: a long linger). */
  public EventPublisher(String bootstrapServers, String producerId, long epoch, Clock clock, int capacity,
      Optional<FleetKey> key, Map<String, Object> producerSettings) {
    var config = new java.util.HashMap<>(producerConfig(bootstrapServers, producerId));
    config.putAll(producerSettings);
    this.producer = KafkaClients.producer(bootstrapServers, config,
        new StringSerializer(), key.map(EnvelopeSerializer::signedBy).orElseGet(EnvelopeSerializer::new));
    this.key = key;
    this.sender = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(capacity),
        Thread.ofPlatform().name("kvfleet-publish-" + producerId).daemon().factory());
    this.producerId = producerId;
    this.epoch = epoch;
    this.clock = clock;
    this.capacity = capacity;
    this.bootstrapServers = bootstrapServers;
  }

  /**
   * A publisher for the same producer's next incarnation ({@code newEpoch}, sequences from 1 again),
   * to the same Kafka with the same buffer; this one stays open until closed.
   */
  public EventPublisher nextIncarnation(long newEpoch) {
    return new EventPublisher(bootstrapServers, producerId, newEpoch, clock, capacity, key);
  }

  /**
   * Publishes an event; the future completes once Kafka has it durably, or fails at once with a
   * {@link KvfleetException} when {@code capacity} events are already waiting for Kafka.
   */
  public CompletableFuture<Envelope> publish(FleetEvent event, String correlationId) {
    return publish(event, correlationId, -1);
  }

  /**
   * Publishes an event to partition {@code partition} of its topic, or to the one its key's
   * murmur2 hash picks when negative: an answer to a request goes where the request was, whatever
   * partitioner its producer used.
   */
  public synchronized CompletableFuture<Envelope> publish(FleetEvent event, String correlationId, int partition) {
    var done = new CompletableFuture<Envelope>();
    if (waiting.get() >= capacity) {
      return CompletableFuture.failedFuture(bufferFull());
    }
    var envelope = Envelope.of(producerId, epoch, sequence + 1, clock.instant(), correlationId, event);
    try {
      sender.execute(() -> send(envelope, partition < 0 ? null : partition, done));
    } catch (RejectedExecutionException e) {
      return CompletableFuture.failedFuture(bufferFull());
    }
    sequence++;
    waiting.incrementAndGet();
    return done;
  }

  private void send(Envelope envelope, Integer partition, CompletableFuture<Envelope> done) {
    try {
      producer.send(new ProducerRecord<>(Topics.topicOf(envelope.data()), partition, Topics.keyOf(envelope.data()),
              envelope),
          (metadata, error) -> {
            waiting.decrementAndGet();
            if (error == null) {
              done.complete(envelope);
            } else {
              done.completeExceptionally(error);
            }
          });
    } catch (RuntimeException e) {
      waiting.decrementAndGet();
      done.completeExceptionally(e);
    }
  }

  /** Events handed to this publisher that Kafka has not acknowledged yet. */
  public int waiting() {
    return waiting.get();
  }

  /** How many events may wait for Kafka before new ones are refused. */
  public int capacity() {
    return capacity;
  }

  /** The Kafka this publisher writes to. */
  public String bootstrapServers() {
    return bootstrapServers;
  }

  public String producerId() {
    return producerId;
  }

  public long epoch() {
    return epoch;
  }

  @Override
  public void close() {
    sender.shutdown();
    try {
      sender.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    producer.close(Duration.ofSeconds(10));
  }

  private KvfleetException bufferFull() {
    return KvfleetException.bufferFull(producerId, capacity);
  }

  /**
   * Fetches the metadata of {@code topics} now, beside the rest of a start-up, so the first publish
   * waits only for its own write; answers this publisher.
   */
  public EventPublisher warm(String... topics) {
    for (String topic : topics) {
      producer.partitionsFor(topic);
    }
    return this;
  }

  /** The producer settings of every kvfleet event producer (the bench's raw reference uses them too). */
  public static Map<String, Object> producerConfig(String bootstrapServers, String producerId) {
    return Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        ProducerConfig.CLIENT_ID_CONFIG, "kvfleet-" + producerId,
        ProducerConfig.ACKS_CONFIG, "all",
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
        ProducerConfig.LINGER_MS_CONFIG, 1,
        // Wait for Kafka to come back rather than drop an event: a day, then the future fails.
        ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) Duration.ofDays(1).toMillis(),
        ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
        ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) Duration.ofDays(1).toMillis());
  }
}
