package io.kvfleet.control.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.kafka.EmbeddedKafka;
import io.kvfleet.control.kafka.FleetTopics;
import io.kvfleet.control.kafka.KafkaClients;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.EnvelopeSerializer;
import io.kvfleet.events.codec.EventCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A writer cannot say when its record was written. Replay orders and cuts the log by record
 * timestamps, and a partition is read in offset order, so one record stamped 50 minutes ahead (a
 * broker takes a writer's stamp up to an hour ahead; any writer can, no key needed) hid every later
 * record of its partition from {@code replay --until T}: a peer that joined before T was missing
 * from the state at T, and nothing said so (RELIABILITY.md, "A record stamped ahead hid what came
 * after it"). The fleet topics are now stamped by the broker as it appends ({@code LogAppendTime}).
 */
class WritersStampsIT {
  private static final EventCodec CODEC = new EventCodec();
  private static EmbeddedKafka kafka;

  @BeforeAll
  static void start() {
    kafka = EmbeddedKafka.startInTempDir();
    FleetTopics.ensure(kafka.bootstrapServers(), (short) 1);
  }

  @AfterAll
  static void stop() {
    kafka.close();
  }

  @Test
  void aRecordStampedAheadHidesNothingFromAReplayUntilATime() throws Exception {
    Instant now = Instant.now();
    try (var producer = KafkaClients.<String, byte[]>producer(kafka.bootstrapServers(), Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all"),
        new StringSerializer(), new ByteArraySerializer())) {
      send(producer, now.toEpochMilli(), "prefill-0", joined("prefill-0", 1, now));
      send(producer, now.plus(Duration.ofMinutes(50)).toEpochMilli(), "junk",
          "not an event".getBytes(StandardCharsets.UTF_8));
      send(producer, now.toEpochMilli(), "decode-0", joined("decode-0", 2, now));
      producer.flush();
    }
    Instant written = Instant.now();

    String until = written.plusSeconds(10).toString();
    var atT = Cli.run("replay", "--bootstrap-servers", kafka.bootstrapServers(), "--until", until);
    assertThat(atT.exitCode()).as(atT.err()).isZero();
    assertThat(atT.err()).doesNotContain("note:");
    assertThat(atT.out()).as("the state at %s, after both joins", until).contains("prefill-0").contains("decode-0");

    assertThat(FleetTopics.writersStamped(kafka.bootstrapServers())).isEmpty();
    List<ConsumerRecord<String, byte[]>> stored = readNodesPartition0(3);
    assertThat(stored).hasSize(3).allSatisfy(r -> {
      assertThat(r.timestampType()).isEqualTo(TimestampType.LOG_APPEND_TIME);
      assertThat(Instant.ofEpochMilli(r.timestamp())).isBetween(now.minusSeconds(5), written.plusSeconds(5));
    });
  }

  private static void send(org.apache.kafka.clients.producer.Producer<String, byte[]> producer, long timestamp,
      String key, byte[] value) throws Exception {
    var record = new ProducerRecord<>(Topics.NODES, 0, timestamp, key, value);
    record.headers().add(EnvelopeSerializer.CONTENT_TYPE_HEADER, Topics.CONTENT_TYPE.getBytes(StandardCharsets.UTF_8));
    producer.send(record).get();
  }

  private static byte[] joined(String node, long epoch, Instant at) {
    return CODEC.encode(new Envelope("e-" + node, node, epoch, 1, at, "", new PeerJoined(node, epoch, "h", "",
        List.of())));
  }

  private static List<ConsumerRecord<String, byte[]>> readNodesPartition0(int count) {
    var partition = new TopicPartition(Topics.NODES, 0);
    var records = new ArrayList<ConsumerRecord<String, byte[]>>();
    try (var consumer = KafkaClients.<String, byte[]>consumer(kafka.bootstrapServers(), Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
        new StringDeserializer(), new ByteArrayDeserializer())) {
      consumer.assign(List.of(partition));
      consumer.seekToBeginning(List.of(partition));
      long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (records.size() < count && System.nanoTime() < end) {
        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
      }
    }
    return records;
  }
}
