package io.kvfleet.control.replay.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvfleet.control.kafka.EmbeddedKafka;
import io.kvfleet.control.kafka.FleetTopics;
import io.kvfleet.events.Topics;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code bench replay}'s synthetic log reaches the broker whole, or the bench says it did not: a
 * 10M-event log spans 10,000 s, and a broker refuses records stamped an hour ahead of its clock.
 */
class ReplayBenchmarkProduceIT {
  static EmbeddedKafka kafka;

  @BeforeAll
  static void startBroker() {
    kafka = EmbeddedKafka.startInTempDir();
  }

  @AfterAll
  static void stopBroker() {
    kafka.close();
  }

  @Test
  void everyRecordItCountsIsOnTheTopics() throws Exception {
    recreateTopics(Map.of());
    var out = new ByteArrayOutputStream();
    long produced = ReplayBenchmark.produce(kafka.bootstrapServers(), 20_000, new PrintStream(out, true));

    assertTrue(produced >= 20_000, "produced " + produced);
    assertEquals(produced, KafkaReading.plain(kafka.bootstrapServers(), Topics.ALL));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains(String.format("produced %,d records", produced)));
  }

  @Test
  void aBrokerThatRefusesTheRecordsStopsTheBenchWithItsReason() throws Exception {
    recreateTopics(Map.of(TopicConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG, "1000"));
    var out = new ByteArrayOutputStream();

    var refused = assertThrows(IllegalStateException.class,
        () -> ReplayBenchmark.produce(kafka.bootstrapServers(), 2_000, new PrintStream(out, true)));

    assertTrue(refused.getMessage().startsWith("the broker refused "), refused.getMessage());
    assertTrue(refused.getMessage().contains("is out of range"), refused.getMessage());
    assertTrue(!out.toString(StandardCharsets.UTF_8).contains("produced"), out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aTenMillionEventLogEndsBeforeNow() {
    Instant now = Instant.parse("2026-12-04T12:00:00Z");
    Instant start = ReplayBenchmark.start(10_000_000, now);

    assertTrue(start.plusMillis(10_100_000).isBefore(now), start.toString());
  }

  private static void recreateTopics(Map<String, String> config) throws Exception {
    try (var admin = Admin.create(Map.<String, Object>of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
        kafka.bootstrapServers()))) {
      var existing = admin.listTopics().names().get();
      List<String> ours = Topics.ALL.stream().filter(existing::contains).toList();
      if (!ours.isEmpty()) {
        admin.deleteTopics(ours).all().get();
        while (admin.listTopics().names().get().stream().anyMatch(ours::contains)) {
          Thread.sleep(50);
        }
      }
    }
    if (config.isEmpty()) {
      FleetTopics.ensureKeepingWritersStamps(kafka.bootstrapServers(), (short) 1);
      return;
    }
    // Made with the setting, not altered after: a change takes a moment to reach the broker.
    try (var admin = Admin.create(Map.<String, Object>of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
        kafka.bootstrapServers()))) {
      admin.createTopics(Topics.ALL.stream()
          .map(t -> new NewTopic(t, FleetTopics.PARTITIONS, (short) 1).configs(config)).toList()).all().get();
    }
  }
}
