package io.kvfleet.control.bench;

import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.control.kafka.FleetTopics;
import io.kvfleet.control.kafka.KafkaClients;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.EnvelopeSerializer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The reference: one raw Kafka round trip on the same broker. A ping record goes to
 * {@code bench.ping}; a responder reading it answers with a pong on {@code bench.pong}; the first
 * side reads the pong. Records carry our records' key, content-type header and sizes (ping as a
 * {@code TransferRequested}, pong as a {@code TransferCompleted}), and the producers use our
 * producers' settings ({@code acks=all}, idempotent, {@code linger.ms=1}).
 */
final class KafkaRoundTrip implements Target {
  static final String PING = "bench.ping";
  static final String PONG = "bench.pong";
  private static final int HEADER = 2 * Long.BYTES; // run nonce, request id

  private final RecordSizes sizes;
  private final long nonce = ThreadLocalRandom.current().nextLong();
  private final KafkaProducer<String, byte[]> pings;
  private final KafkaProducer<String, byte[]> pongs;
  private final List<TopicReader<byte[]>> readers = new ArrayList<>();

  private KafkaRoundTrip(String bootstrapServers, RecordSizes sizes) {
    this.sizes = sizes;
    this.pings = producer(bootstrapServers, "bench-ping");
    this.pongs = producer(bootstrapServers, "bench-pong");
  }

  /** Creates the topics if missing and starts the responder and the pong reader. */
  static KafkaRoundTrip start(String bootstrapServers, short replicationFactor, RecordSizes sizes,
      Answers answers) throws InterruptedException {
    FleetTopics.ensure(bootstrapServers, replicationFactor, List.of(PING, PONG));
    var roundTrip = new KafkaRoundTrip(bootstrapServers, sizes);
    try {
      roundTrip.readers.add(TopicReader.start(bootstrapServers, "bench-pong-reader", PONG,
          new ByteArrayDeserializer(), r -> roundTrip.onPong(r, answers)));
      roundTrip.readers.add(TopicReader.start(bootstrapServers, "bench-responder", PING,
          new ByteArrayDeserializer(), roundTrip::onPing));
      return roundTrip;
    } catch (RuntimeException | InterruptedException e) {
      roundTrip.close();
      throw e;
    }
  }

  @Override
  public String name() {
    return "raw Kafka";
  }

  @Override
  public void send(long id) {
    pings.send(record(PING, FleetBench.PREFILL, payload(sizes.request(), nonce, id)));
  }

  private void onPing(ConsumerRecord<String, byte[]> ping) {
    var pong = new byte[sizes.terminal()];
    System.arraycopy(ping.value(), 0, pong, 0, HEADER);
    pongs.send(record(PONG, ping.key(), pong));
  }

  private void onPong(ConsumerRecord<String, byte[]> pong, Answers answers) {
    long now = System.nanoTime();
    var header = ByteBuffer.wrap(pong.value());
    if (header.getLong() == nonce) {
      answers.answered(header.getLong(), now, true);
    }
  }

  /** A record of {@code size} bytes (at least the header) that starts with the nonce and the id. */
  static byte[] payload(int size, long nonce, long id) {
    return ByteBuffer.allocate(Math.max(size, HEADER)).putLong(nonce).putLong(id).array();
  }

  private static ProducerRecord<String, byte[]> record(String topic, String key, byte[] value) {
    var record = new ProducerRecord<>(topic, key, value);
    record.headers().add(EnvelopeSerializer.CONTENT_TYPE_HEADER, Topics.CONTENT_TYPE.getBytes(StandardCharsets.UTF_8));
    return record;
  }

  private static KafkaProducer<String, byte[]> producer(String bootstrapServers, String clientId) {
    return KafkaClients.producer(bootstrapServers, EventPublisher.producerConfig(bootstrapServers, clientId),
        new StringSerializer(), new ByteArraySerializer());
  }

  @Override
  public void close() {
    readers.reversed().forEach(TopicReader::close);
    pings.close();
    pongs.close();
  }
}
