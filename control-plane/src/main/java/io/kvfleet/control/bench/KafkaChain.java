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
 * A reference: a chain of raw Kafka hops on the same broker. The first record goes to hop 1's
 * topic; a relay reading each hop's topic writes the next hop's record; the first side reads the
 * last hop. With two hops this is the round trip ({@code bench.ping}, {@code bench.pong}); with
 * three it is our design's critical path with nothing of ours in it (request, dispatched,
 * terminal). Records carry our records' keys, content-type header and sizes, and every producer
 * uses our producers' settings ({@code acks=all}, idempotent, {@code linger.ms=1}).
 */
final class KafkaChain implements Target {
  static final String PING = "bench.ping";
  static final String PONG = "bench.pong";
  private static final int HEADER = 2 * Long.BYTES; // run nonce, request id

  private final String name;
  private final List<String> topics;
  private final int[] sizes;
  private final List<String> keys;
  private final long nonce = ThreadLocalRandom.current().nextLong();
  private final List<KafkaProducer<String, byte[]>> producers = new ArrayList<>();
  private final List<TopicReader<byte[]>> readers = new ArrayList<>();

  private KafkaChain(String bootstrapServers, String name, List<String> topics, int[] sizes, List<String> keys) {
    this.name = name;
    this.topics = topics;
    this.sizes = sizes;
    this.keys = keys;
    for (int hop = 0; hop < topics.size(); hop++) {
      producers.add(producer(bootstrapServers, "bench-hop-" + name.replace(' ', '-') + "-" + hop));
    }
  }

  /** The round trip: a ping as long as a request, a pong as long as a terminal event. */
  static KafkaChain roundTrip(String bootstrapServers, short replicationFactor, RecordSizes sizes,
      List<String> keys, Target.Answers answers) throws InterruptedException {
    return start(bootstrapServers, replicationFactor, "raw Kafka", List.of(PING, PONG),
        new int[] {sizes.request(), sizes.terminal()}, keys, answers);
  }

  /** Three hops sized as our request, dispatch and terminal event. */
  static KafkaChain threeHops(String bootstrapServers, short replicationFactor, RecordSizes sizes,
      List<String> keys, Target.Answers answers) throws InterruptedException {
    return start(bootstrapServers, replicationFactor, "raw 3-hop", List.of("bench.hop1", "bench.hop2", "bench.hop3"),
        new int[] {sizes.request(), sizes.dispatched(), sizes.terminal()}, keys, answers);
  }

  /** Creates the topics if missing and starts the relays and the last hop's reader. */
  private static KafkaChain start(String bootstrapServers, short replicationFactor, String name, List<String> topics,
      int[] sizes, List<String> keys, Target.Answers answers) throws InterruptedException {
    FleetTopics.ensure(bootstrapServers, replicationFactor, topics);
    var chain = new KafkaChain(bootstrapServers, name, topics, sizes, keys);
    try {
      int last = topics.size() - 1;
      chain.readers.add(TopicReader.start(bootstrapServers, "bench-last-hop-" + last, topics.get(last),
          new ByteArrayDeserializer(), r -> chain.onLast(r, answers)));
      for (int hop = last - 1; hop >= 0; hop--) {
        int next = hop + 1;
        chain.readers.add(TopicReader.start(bootstrapServers, "bench-responder-" + hop, topics.get(hop),
            new ByteArrayDeserializer(), r -> chain.relay(r, next)));
      }
      return chain;
    } catch (RuntimeException | InterruptedException e) {
      chain.close();
      throw e;
    }
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void send(long id) {
    String key = keys.get((int) Math.floorMod(id, (long) keys.size()));
    producers.getFirst().send(record(topics.getFirst(), key, payload(sizes[0], nonce, id)));
  }

  private void relay(ConsumerRecord<String, byte[]> in, int hop) {
    var out = new byte[Math.max(sizes[hop], HEADER)];
    System.arraycopy(in.value(), 0, out, 0, HEADER);
    producers.get(hop).send(record(topics.get(hop), in.key(), out));
  }

  private void onLast(ConsumerRecord<String, byte[]> last, Target.Answers answers) {
    long now = System.nanoTime();
    var header = ByteBuffer.wrap(last.value());
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
    producers.forEach(KafkaProducer::close);
  }
}
