package io.kvfleet.control.kafka;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.EnvelopeSerializer;
import io.kvfleet.events.trust.FleetKey;
import io.kvfleet.events.trust.SignedDocument;
import java.nio.charset.StandardCharsets;
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
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Writes one producer's events to Kafka: wraps each in an envelope with the producer's epoch and
 * next sequence number and sends it durably (idempotent producer, {@code acks=all}).
 *
 * <p>Never waits for Kafka on its caller's thread: events are encoded (not signed) and numbered in call order
 * and handed to one sending thread through a bounded buffer, which signs them. While Kafka is unreachable they
 * wait there, and in the producer, and go out in order when it returns; the idempotent producer keeps retries
 * from duplicating them. When {@code capacity} events are waiting, or an event is larger than a Kafka record,
 * {@link #publish} refuses at once with a clear error instead of dropping anything.
 */
public final class EventPublisher implements AutoCloseable {
  /** Events that may wait for Kafka before new ones are refused. */
  public static final int DEFAULT_CAPACITY = 10_000;

  /** The producer's own limit on a record when its settings name none ({@code max.request.size}). */
  static final int DEFAULT_MAX_REQUEST_BYTES = 1_048_576;
  /** What a later sequence number and time may add to an event measured now ({@link #tooLarge(FleetEvent, String)}). */
  static final int LATER_MARGIN = 64;
  /** Room left under that limit for what Kafka adds to a record (its batch header, lengths, offsets). */
  static final int RECORD_OVERHEAD = 1_024;

  private final KafkaProducer<String, byte[]> producer;
  /** Encodes without signing, on the caller's thread, under this publisher's monitor. */
  private final EnvelopeSerializer encoder = new EnvelopeSerializer();
  /** What signing adds to each document (0 when it signs nothing): the signature itself is made on the sender. */
  private final int signatureBytes;
  /** The largest record (key, value and headers) this publisher hands to Kafka. */
  private final int maxRecordBytes;
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
    this.producer = KafkaClients.producer(bootstrapServers, config, new StringSerializer(), new ByteArraySerializer());
    this.signatureBytes = key.map(SignedDocument::added).orElse(0);
    this.maxRecordBytes = maxRequestBytes(KafkaClients.config(bootstrapServers, config)) - RECORD_OVERHEAD;
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
   * {@link KvfleetException} when {@code capacity} events are already waiting for Kafka, or when the event is
   * larger than a record Kafka takes ({@link KvfleetException#isEventTooLarge}). Either refusal takes no
   * sequence number: the log shows no gap for it.
   */
  public CompletableFuture<Envelope> publish(FleetEvent event, String correlationId) {
    return publish(event, correlationId, -1);
  }

  /**
   * Publishes an event to partition {@code partition} of its topic, or to the one its key's
   * murmur2 hash picks when negative: an answer to a request goes where the request was, whatever
   * partitioner its producer used.
   */
  public CompletableFuture<Envelope> publish(FleetEvent event, String correlationId, int partition) {
    return place(event, correlationId, partition, null);
  }

  /** Where Kafka put a published event: its partition and offset. */
  public record Placed(Envelope envelope, int partition, long offset) {}

  /** As {@link #publish(FleetEvent, String)}, answering also where Kafka put it (a caller that looks for answers). */
  public CompletableFuture<Placed> publishPlaced(FleetEvent event, String correlationId) {
    var placed = new CompletableFuture<Placed>();
    place(event, correlationId, -1, placed).whenComplete((envelope, error) -> {
      if (error != null) {
        placed.completeExceptionally(error);
      }
    });
    return placed;
  }

  private synchronized CompletableFuture<Envelope> place(FleetEvent event, String correlationId, int partition,
      CompletableFuture<Placed> placed) {
    var done = new CompletableFuture<Envelope>();
    if (waiting.get() >= capacity) {
      return CompletableFuture.failedFuture(bufferFull());
    }
    var envelope = Envelope.of(producerId, epoch, sequence + 1, clock.instant(), correlationId, event);
    // Encoded here, not on the sending thread: an event Kafka would refuse as too large is refused before it
    // takes its number (a number taken and never written reads as a lost event in every replay). Signing, the
    // costly part, stays on the sending thread; what it adds is a known number of bytes.
    var record = record(envelope, partition);
    var tooLarge = tooLarge(record, event);
    if (tooLarge.isPresent()) {
      return CompletableFuture.failedFuture(tooLarge.get());
    }
    try {
      sender.execute(() -> send(record, envelope, done, placed));
    } catch (RejectedExecutionException e) {
      return CompletableFuture.failedFuture(bufferFull());
    }
    sequence++;
    waiting.incrementAndGet();
    return done;
  }

  private void send(ProducerRecord<String, byte[]> unsigned, Envelope envelope, CompletableFuture<Envelope> done,
      CompletableFuture<Placed> placed) {
    try {
      var record = key.isEmpty() ? unsigned : new ProducerRecord<>(unsigned.topic(), unsigned.partition(),
          unsigned.key(), SignedDocument.sign(unsigned.value(), key.get()), unsigned.headers());
      producer.send(record,
          (metadata, error) -> {
            waiting.decrementAndGet();
            if (error == null) {
              if (placed != null) {
                placed.complete(new Placed(envelope, metadata.partition(), metadata.offset()));
              }
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

  /**
   * Why {@code event} could not be published with {@code correlationId}, as {@link #publish} would refuse it for
   * its size (encoded as the next event of this producer, with a margin for a later one; a signature, when it
   * signs, counted in): for a caller that must know before it acts on anything (an agent declaring a layout).
   * Empty when it fits.
   */
  public synchronized Optional<KvfleetException> tooLarge(FleetEvent event, String correlationId) {
    var record = record(Envelope.of(producerId, epoch, sequence + 1, clock.instant(), correlationId, event), -1);
    // A later number and time may be a few characters longer than these: refused with that margin, it fits later.
    var padded = new ProducerRecord<>(record.topic(), record.partition(), record.key(),
        java.util.Arrays.copyOf(record.value(), record.value().length + LATER_MARGIN), record.headers());
    return tooLarge(padded, event);
  }

  private ProducerRecord<String, byte[]> record(Envelope envelope, int partition) {
    String topic = Topics.topicOf(envelope.data());
    var headers = new RecordHeaders();
    byte[] value = encoder.serialize(topic, headers, envelope);
    return new ProducerRecord<>(topic, partition < 0 ? null : partition, Topics.keyOf(envelope.data()), value, headers);
  }

  private Optional<KvfleetException> tooLarge(ProducerRecord<String, byte[]> record, FleetEvent event) {
    long bytes = recordBytes(record.key(), record.value(), record.headers()) + signatureBytes;
    return bytes <= maxRecordBytes ? Optional.empty() : Optional.of(KvfleetException.eventTooLarge(producerId,
        event.wireType() + " for " + abbreviated(event.subject()), bytes, maxRecordBytes));
  }

  /** The record's size as the producer counts it against {@code max.request.size}, near enough. */
  private static long recordBytes(String key, byte[] value, Headers headers) {
    long bytes = value.length + (key == null ? 0 : key.getBytes(StandardCharsets.UTF_8).length);
    for (Header h : headers) {
      bytes += h.key().length() + (h.value() == null ? 0 : h.value().length) + 8;
    }
    return bytes;
  }

  private static int maxRequestBytes(Map<String, Object> config) {
    Object set = config.get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
    return set == null ? DEFAULT_MAX_REQUEST_BYTES : Integer.parseInt(set.toString().trim());
  }

  private static String abbreviated(String subject) {
    return subject.length() <= 80 ? subject : subject.substring(0, 80) + "... (" + subject.length() + " characters)";
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
