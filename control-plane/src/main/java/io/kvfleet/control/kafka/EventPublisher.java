package io.kvfleet.control.kafka;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.EnvelopeSerializer;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Writes one producer's events to Kafka: wraps each in an envelope with the producer's epoch and
 * next sequence number and sends it durably (idempotent producer, {@code acks=all}). Thread-safe:
 * numbering and sending happen under one lock so partition order matches sequence order.
 */
public final class EventPublisher implements AutoCloseable {
  private final KafkaProducer<String, Envelope> producer;
  private final String producerId;
  private final long epoch;
  private final Clock clock;
  private long sequence;

  public EventPublisher(String bootstrapServers, String producerId, long epoch, Clock clock) {
    this.producer = new KafkaProducer<>(producerConfig(bootstrapServers, producerId),
        new StringSerializer(), new EnvelopeSerializer());
    this.producerId = producerId;
    this.epoch = epoch;
    this.clock = clock;
  }

  /** Publishes an event; the future completes once Kafka has it durably. */
  public synchronized CompletableFuture<Envelope> publish(FleetEvent event, String correlationId) {
    var envelope = Envelope.of(producerId, epoch, ++sequence, clock.instant(), correlationId, event);
    var done = new CompletableFuture<Envelope>();
    producer.send(new ProducerRecord<>(Topics.topicOf(event), Topics.keyOf(event), envelope),
        (RecordMetadata metadata, Exception error) -> {
          if (error == null) {
            done.complete(envelope);
          } else {
            done.completeExceptionally(error);
          }
        });
    return done;
  }

  public String producerId() {
    return producerId;
  }

  public long epoch() {
    return epoch;
  }

  @Override
  public void close() {
    producer.close();
  }

  private static Map<String, Object> producerConfig(String bootstrapServers, String producerId) {
    return Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        ProducerConfig.CLIENT_ID_CONFIG, "kvfleet-" + producerId,
        ProducerConfig.ACKS_CONFIG, "all",
        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
        ProducerConfig.LINGER_MS_CONFIG, 1,
        ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
  }
}
