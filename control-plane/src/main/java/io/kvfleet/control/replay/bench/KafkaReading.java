package io.kvfleet.control.replay.bench;

import io.kvfleet.control.kafka.KafkaClients;
import io.kvfleet.control.replay.LogSource;
import io.kvfleet.control.replay.ReplayRunner;
import io.kvfleet.events.replay.Replay;
import io.kvfleet.events.replay.ReplayOptions;
import io.kvfleet.events.snapshot.StateHash;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Replay from Kafka beside the reference: a plain consumer loop over the same topics to the same
 * end offsets, bytes only, as {@code kafka-consumer-perf-test} does (its ConsumerPerformance is a
 * poll loop counting records and bytes). Rounds alternate so both see the same broker state.
 */
final class KafkaReading {
  private KafkaReading() {}

  record Result(Rate plainConsumer, Rate replay, String hash) {
    double ratio() {
      return replay.perSecond() / plainConsumer.perSecond();
    }
  }

  static Result measure(String bootstrapServers, List<String> topics, int rounds) {
    Rate plain = null;
    Rate replay = null;
    String hash = null;
    for (int i = 0; i < rounds; i++) {
      plain = Rate.best(plain, Rate.measure("Kafka: plain consumer loop (bytes only)", () -> plain(bootstrapServers, topics)));
      var r = new Replay(ReplayOptions.defaults());
      replay = Rate.best(replay, Rate.measure("Kafka: replay (merge + decode + fold + anomalies)", () -> {
        ReplayRunner.run(new LogSource.Kafka(bootstrapServers, topics), r, false);
        return r.state().appliedCount();
      }));
      hash = StateHash.of(r.finish().state());
    }
    return new Result(plain, replay, hash);
  }

  /** Reads every partition of {@code topics} from the beginning to the end offsets; how many records. */
  static long plain(String bootstrapServers, List<String> topics) {
    try (var consumer = KafkaClients.<byte[], byte[]>consumer(bootstrapServers, Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
        ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      var partitions = new ArrayList<TopicPartition>();
      topics.forEach(t -> consumer.partitionsFor(t).forEach(p -> partitions.add(new TopicPartition(t, p.partition()))));
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      var ends = consumer.endOffsets(partitions);
      long total = ends.values().stream().mapToLong(Long::longValue).sum();
      long records = 0;
      while (records < total) {
        records += consumer.poll(Duration.ofMillis(200)).count();
      }
      return records;
    }
  }
}
