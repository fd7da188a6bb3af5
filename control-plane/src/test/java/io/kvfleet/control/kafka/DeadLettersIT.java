package io.kvfleet.control.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A poison record whose value a catching-up coordinator did not keep in memory (F4) is copied from the log:
 * its key and bytes as they were, read again from a real broker; one the log no longer holds is copied without a
 * value, its reason saying so.
 */
class DeadLettersIT {
  static EmbeddedKafka kafka;

  @BeforeAll
  static void startBroker() {
    kafka = EmbeddedKafka.startInTempDir();
    FleetTopics.ensure(kafka.bootstrapServers(), (short) 1);
  }

  @AfterAll
  static void stopBroker() {
    kafka.close();
  }

  @Test
  void copiesARecordNotKeptInMemoryAsTheLogHoldsIt() throws Exception {
    byte[] junk = new byte[512 * 1024];
    Arrays.fill(junk, (byte) 'x');
    long offset;
    try (var raw = new RawRecords(kafka.bootstrapServers())) {
      offset = raw.send(Topics.NODES, 0, "k-junk", junk);
    }
    List<ConsumerRecord<byte[], byte[]>> copies;
    try (var deadLetters = new DeadLetters(kafka.bootstrapServers(), "dead-letters-it")) {
      deadLetters.copyFromLog(Topics.NODES, 0, offset, "EVENT_UNSIGNED: no keyid");
      deadLetters.copyFromLog(Topics.NODES, 0, offset + 1_000, "EVENT_UNSIGNED: no keyid"); // never written
      copies = readDeadLetters(List.of(DeadLetters.keyOf(Topics.NODES, 0, offset),
          DeadLetters.keyOf(Topics.NODES, 0, offset + 1_000)));
    }
    var copy = copies.stream().filter(r -> key(r).equals(DeadLetters.keyOf(Topics.NODES, 0, offset))).findFirst();
    assertThat(copy).as("the copy of %s-0@%d", Topics.NODES, offset).isPresent();
    assertThat(copy.get().value()).as("its bytes, read again from the log").isEqualTo(junk);
    assertThat(header(copy.get(), "kvfleet.dlq.key")).isEqualTo("k-junk");
    assertThat(header(copy.get(), DeadLetters.REASON)).isEqualTo("EVENT_UNSIGNED: no keyid");

    var gone = copies.stream()
        .filter(r -> key(r).equals(DeadLetters.keyOf(Topics.NODES, 0, offset + 1_000))).findFirst();
    assertThat(gone).as("the copy of a record the log does not hold").isPresent();
    assertThat(gone.get().value()).isNull();
    assertThat(header(gone.get(), DeadLetters.REASON)).endsWith("(value not kept, and no longer in the log)");
  }

  @Test
  void copiesARecordTooLargeToCopyWholeWithoutItsValueAndSaysSo() throws Exception {
    // As large as a producer with Kafka's default limit (1 MiB a request) may write: the copy's
    // headers push it over, so a forged record of this size would otherwise never reach the topic.
    byte[] junk = new byte[1_048_576 - 92 - 20];
    Arrays.fill(junk, (byte) 'y');
    long kept;
    long reread;
    try (var raw = new RawRecords(kafka.bootstrapServers())) {
      kept = raw.send(Topics.TRANSFERS, 1, "k-big", junk);
      reread = raw.send(Topics.TRANSFERS, 1, "k-big", junk);
    }
    List<ConsumerRecord<byte[], byte[]>> copies;
    try (var deadLetters = new DeadLetters(kafka.bootstrapServers(), "dead-letters-large-it")) {
      deadLetters.copy(Topics.TRANSFERS, 1, kept, "k-big", junk, "malformed: not JSON");
      deadLetters.copyFromLog(Topics.TRANSFERS, 1, reread, "malformed: not JSON");
      copies = readDeadLetters(List.of(DeadLetters.keyOf(Topics.TRANSFERS, 1, kept),
          DeadLetters.keyOf(Topics.TRANSFERS, 1, reread)));
    }
    for (long offset : List.of(kept, reread)) {
      var copy = copies.stream().filter(r -> key(r).equals(DeadLetters.keyOf(Topics.TRANSFERS, 1, offset))).findFirst();
      assertThat(copy).as("the copy of %s-1@%d", Topics.TRANSFERS, offset).isPresent();
      assertThat(copy.get().value()).as("sent without the value that made it too large").isNull();
      assertThat(header(copy.get(), "kvfleet.dlq.key")).isEqualTo("k-big");
      assertThat(header(copy.get(), DeadLetters.REASON)).isEqualTo("malformed: not JSON (value of " + junk.length
          + " bytes not copied: too large with the copy's headers)");
    }
  }

  @Test
  void copiesARecordWithAKeyTooLargeToCopyWithTheKeyCut() throws Exception {
    String hugeKey = "k".repeat(1_048_576 - 92 - 40);
    byte[] small = "{}".getBytes(StandardCharsets.UTF_8);
    long offset;
    try (var raw = new RawRecords(kafka.bootstrapServers())) {
      offset = raw.send(Topics.TRANSFERS, 2, hugeKey, small);
    }
    List<ConsumerRecord<byte[], byte[]>> copies;
    try (var deadLetters = new DeadLetters(kafka.bootstrapServers(), "dead-letters-key-it")) {
      deadLetters.copy(Topics.TRANSFERS, 2, offset, hugeKey, small, "EVENT_MISPLACED: key '" + hugeKey + "'");
      copies = readDeadLetters(List.of(DeadLetters.keyOf(Topics.TRANSFERS, 2, offset)));
    }
    var copy = copies.getFirst();
    assertThat(copy.value()).isNull();
    assertThat(header(copy, "kvfleet.dlq.key"))
        .isEqualTo("k".repeat(DeadLetters.KEPT_TEXT) + "... (" + hugeKey.length() + " characters)");
    assertThat(header(copy, DeadLetters.REASON)).startsWith("EVENT_MISPLACED: key 'kkk")
        .endsWith("... (" + (hugeKey.length() + 23) + " characters) (value of 2 bytes not copied: too large with the"
            + " copy's headers)");
  }

  /** The dead-letter copies with these keys, waiting until each is there. */
  private static List<ConsumerRecord<byte[], byte[]>> readDeadLetters(List<String> keys) throws InterruptedException {
    List<ConsumerRecord<byte[], byte[]>> got = new ArrayList<>();
    try (var consumer = new KafkaConsumer<>(Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers(),
        "enable.auto.commit", false), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      var partitions = consumer.partitionsFor(Topics.DEADLETTER).stream()
          .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Await.until("the dead-letter copies " + keys, Duration.ofSeconds(60), () -> {
        consumer.poll(Duration.ofMillis(200)).forEach(r -> {
          if (keys.contains(key(r))) {
            got.add(r);
          }
        });
        return keys.stream().allMatch(k -> got.stream().anyMatch(r -> key(r).equals(k)));
      });
    }
    return got;
  }

  private static String key(ConsumerRecord<byte[], byte[]> r) {
    return r.key() == null ? "" : new String(r.key(), StandardCharsets.UTF_8);
  }

  private static String header(ConsumerRecord<byte[], byte[]> r, String name) {
    var h = r.headers().lastHeader(name);
    return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
  }
}
