package io.kvfleet.control.kafka;

import io.kvfleet.events.Topics;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferTimedOut;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EventCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Reads what a log says about how transfers ended, with a plain consumer from the beginning. */
public final class TransferEndings {
  private static final EventCodec CODEC = new EventCodec();

  private TransferEndings() {}

  /** Every ending of each of {@code ids} in the transfers topic ({@code rejected REASON}, {@code timed out}, ...). */
  public static Map<String, List<String>> of(String bootstrapServers, List<String> ids) {
    Map<String, List<String>> endings = new HashMap<>();
    ids.forEach(id -> endings.put(id, new ArrayList<>()));
    for (var record : readAll(bootstrapServers, Topics.TRANSFERS)) {
      if (record.value() != null && CODEC.decode(record.value()) instanceof Decoded.Event e
          && endings.containsKey(e.envelope().subject())) {
        String ending = switch (e.envelope().data()) {
          case TransferRejected r -> "rejected " + r.reason();
          case TransferTimedOut t -> "timed out";
          case TransferFailed f -> "failed " + f.reason();
          case TransferCompleted c -> "completed";
          default -> null;
        };
        if (ending != null) {
          endings.get(e.envelope().subject()).add(ending);
        }
      }
    }
    return endings;
  }

  /** Every record of {@code topic}, read to the end it had when asked. */
  public static List<ConsumerRecord<byte[], byte[]>> readAll(String bootstrapServers, String topic) {
    try (var consumer = new KafkaConsumer<>(Map.<String, Object>of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers),
        new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      var partitions = consumer.partitionsFor(topic).stream().map(p -> new TopicPartition(topic, p.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      var ends = consumer.endOffsets(partitions);
      List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
      while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
      }
      return records;
    }
  }
}
