package io.kvfleet.control.kafka;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.codec.EventCodec;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Writes records that no kvfleet producer would write: garbage, unknown types, future versions. */
public final class RawRecords implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final KafkaProducer<String, byte[]> producer;

  public RawRecords(String bootstrapServers) {
    producer = new KafkaProducer<>(Map.of("bootstrap.servers", bootstrapServers, "acks", "all"),
        new StringSerializer(), new ByteArraySerializer());
  }

  public void send(String topic, String key, byte[] value) throws Exception {
    producer.send(new ProducerRecord<>(topic, key, value)).get();
  }

  /** Sends to {@code partition} explicitly, as a producer with another partitioner than murmur2 might, and answers the offset; a null value is a tombstone. */
  public long send(String topic, int partition, String key, byte[] value) throws Exception {
    return producer.send(new ProducerRecord<>(topic, partition, key, value)).get().offset();
  }

  public void send(String topic, String key, String value) throws Exception {
    send(topic, key, value.getBytes(StandardCharsets.UTF_8));
  }

  /** The CloudEvents document of {@code envelope} with attributes replaced. */
  public static String rewritten(Envelope envelope, Map<String, Object> attributes) throws Exception {
    var doc = (ObjectNode) JSON.readTree(new EventCodec().encode(envelope));
    attributes.forEach((name, value) -> doc.set(name, JSON.valueToTree(value)));
    return JSON.writeValueAsString(doc);
  }

  @Override
  public void close() {
    producer.close();
  }
}
