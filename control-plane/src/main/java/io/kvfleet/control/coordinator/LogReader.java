package io.kvfleet.control.coordinator;

import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.replay.LogPosition;
import io.kvfleet.events.replay.LogRecord;
import io.vertx.core.Future;
import io.vertx.kafka.client.common.TopicPartition;
import io.vertx.kafka.client.consumer.KafkaConsumer;
import io.vertx.kafka.client.consumer.KafkaConsumerRecord;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads whole fleet topics from the beginning with a Vert.x Kafka consumer. */
final class LogReader {
  private LogReader() {}

  static Map<String, String> config(String bootstrapServers, String clientId) {
    return Map.of(
        "bootstrap.servers", bootstrapServers,
        "client.id", clientId,
        "enable.auto.commit", "false",
        "auto.offset.reset", "earliest",
        "isolation.level", "read_committed");
  }

  /**
   * A member of the coordinators' consumer group: reads every partition it gets from the start. It
   * is a static member named by its coordinator id, so a coordinator that restarts (after a crash
   * too) takes its partitions back at once instead of leaving them with nobody until the dead
   * member's session ran out; one that stays down gives them up after {@link #GROUP_SESSION}.
   */
  static Map<String, String> groupConfig(String bootstrapServers, String clientId, String groupId) {
    var config = new HashMap<>(config(bootstrapServers, clientId + "-transfers"));
    config.put("group.id", groupId);
    config.put("group.instance.id", clientId);
    config.put("session.timeout.ms", Long.toString(GROUP_SESSION.toMillis()));
    config.put("heartbeat.interval.ms", Long.toString(GROUP_SESSION.toMillis() / 10));
    // What RevocationFence rests on, whatever a client.properties file says: a revocation may hold
    // the rebalance for its whole hold, and the group runs the classic protocol's assignment.
    config.put("max.poll.interval.ms", Long.toString(RevocationFence.HOLD.multipliedBy(10).toMillis()));
    config.put("partition.assignment.strategy", org.apache.kafka.clients.consumer.RangeAssignor.class.getName());
    config.put("group.protocol", "classic");
    return config;
  }

  /**
   * How long a silent group member keeps its partitions: long enough that a busy machine's pauses do
   * not take them away (a restarted member takes them back at once anyway), short beside a deadline.
   */
  static final java.time.Duration GROUP_SESSION = java.time.Duration.ofSeconds(15);

  /**
   * Assigns every partition of {@code topics} (no consumer group: reading starts at the earliest
   * offset) and answers their end offsets.
   */
  static Future<Map<TopicPartition, Long>> assignFromBeginning(
      KafkaConsumer<?, ?> consumer, List<String> topics) {
    var partitions = new HashSet<TopicPartition>();
    Future<Void> listed = Future.succeededFuture();
    for (String topic : topics) {
      listed = listed.compose(v -> consumer.partitionsFor(topic)).map(infos -> {
        infos.forEach(i -> partitions.add(new TopicPartition(i.getTopic(), i.getPartition())));
        return null;
      });
    }
    return listed
        .compose(v -> consumer.assign(Set.copyOf(partitions)))
        .compose(v -> consumer.endOffsets(Set.copyOf(partitions)))
        .map(HashMap::new);
  }

  /** A consumed record as replay sees it, so a watcher and a replay read the same thing. */
  static LogRecord logRecord(KafkaConsumerRecord<String, Decoded> record) {
    return new LogRecord(new LogPosition(record.topic(), record.partition(), record.offset()),
        Instant.ofEpochMilli(record.timestamp()), record.key() == null ? "" : record.key(), record.value());
  }
}
