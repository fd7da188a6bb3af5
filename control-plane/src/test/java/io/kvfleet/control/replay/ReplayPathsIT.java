package io.kvfleet.control.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.kafka.EmbeddedKafka;
import io.kvfleet.control.kafka.FleetTopics;
import io.kvfleet.control.kafka.KafkaClients;
import io.kvfleet.control.replay.bench.SyntheticFleet;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.EnvelopeSerializer;
import io.kvfleet.events.codec.EventCodec;
import io.kvfleet.events.replay.LogRecord;
import io.kvfleet.events.replay.Replay;
import io.kvfleet.events.replay.ReplayOptions;
import io.kvfleet.events.replay.ReplayOrder;
import io.kvfleet.events.snapshot.StateHash;
import io.kvfleet.events.trust.FleetKey;
import io.kvfleet.events.trust.SignedDocument;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every way to replay a log reaches the state the reference reaches: the records decoded one by one
 * and merged in memory by {@link ReplayOrder#merge}, folded on one thread. The log mixes signed
 * events, an unknown event type and poison records (not JSON, binary, JSON that is not an event)
 * over every partition of every fleet topic, with timestamps shared across partitions so the merge's
 * tie-break decides; the faster readers (the merge in {@link KafkaLog}, the export's three threads,
 * decoding on a pool) must not change a single step of the fold.
 */
class ReplayPathsIT {
  static final EventCodec CODEC = new EventCodec();
  static final int POISON = 3;

  @TempDir static Path dir;
  static EmbeddedKafka kafka;
  static final Map<String, List<LogRecord>> sent = new TreeMap<>();
  static int events;

  @BeforeAll
  static void produceAMixedLogOverEveryPartition() throws Exception {
    kafka = EmbeddedKafka.startInTempDir();
    FleetTopics.ensureKeepingWritersStamps(kafka.bootstrapServers(), (short) 1);
    var key = FleetKey.generate("router-0");
    // An hour ago: a fixed date would fall out of the broker's seven-day retention a week on.
    List<Envelope> fleet = SyntheticFleet.generate(3_000, Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(3_600));
    events = fleet.size();
    try (var producer = KafkaClients.<String, byte[]>producer(kafka.bootstrapServers(), Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all"),
        new StringSerializer(), new ByteArraySerializer())) {
      for (int i = 0; i < fleet.size(); i++) {
        Envelope e = fleet.get(i);
        byte[] value = CODEC.encode(e);
        if (i % 5 == 0) {
          value = SignedDocument.sign(value, key);
        }
        if (i == 101) {
          value = new String(value, StandardCharsets.UTF_8).replaceFirst("\"type\":\"[^\"]+\"",
              "\"type\":\"io.kvfleet.peer.teleported\"").getBytes(StandardCharsets.UTF_8);
        }
        send(producer, Topics.topicOf(e), i, e.time().toEpochMilli() / 4 * 4, Topics.keyOf(e), value);
      }
      send(producer, Topics.NODES, 1, fleet.get(200).time().toEpochMilli(), "prefill-0",
          "{not json at all".getBytes(StandardCharsets.UTF_8));
      send(producer, Topics.TRANSFERS, 2, fleet.get(400).time().toEpochMilli(), "t-1", new byte[] {0, 1, 2, (byte) 0xff});
      send(producer, Topics.TRANSFERS, 0, fleet.get(600).time().toEpochMilli(), "t-2",
          "{\"a\":1}".getBytes(StandardCharsets.UTF_8));
      producer.flush();
    }
  }

  /** Sends to the partition {@code n} picks and keeps the record as the reference will read it. */
  private static void send(org.apache.kafka.clients.producer.Producer<String, byte[]> producer, String topic, int n,
      long timestamp, String key, byte[] value) throws Exception {
    int partition = n % FleetTopics.PARTITIONS;
    var record = new ProducerRecord<>(topic, partition, timestamp, key, value);
    record.headers().add(EnvelopeSerializer.CONTENT_TYPE_HEADER, Topics.CONTENT_TYPE.getBytes(StandardCharsets.UTF_8));
    long offset = producer.send(record).get().offset();
    var stored = new StoredRecord(topic, partition, offset, timestamp, key.getBytes(StandardCharsets.UTF_8), List.of(),
        value);
    sent.computeIfAbsent(topic + "-" + partition, p -> new ArrayList<>()).add(stored.decode(CODEC));
  }

  @AfterAll
  static void stop() {
    kafka.close();
  }

  static String reference() {
    var replay = new Replay(ReplayOptions.defaults());
    ReplayOrder.merge(sent.values()).forEach(replay::accept);
    var result = replay.finish();
    assertThat(result.malformed()).isEqualTo(POISON);
    return StateHash.of(result.state());
  }

  static String hashOf(LogSource source, int decodeThreads) {
    var replay = new Replay(ReplayOptions.defaults());
    ReplayRunner.read(source, replay::accept, false, decodeThreads);
    var result = replay.finish();
    assertThat(result.malformed()).isEqualTo(POISON);
    assertThat(result.records()).isEqualTo(events + POISON);
    return StateHash.of(result.state());
  }

  /** This log's stamps are its writers' (a synthetic history); a fleet's topics are told apart, and warned of. */
  @Test
  void topicsMadeForASyntheticLogKeepTheirWritersStamps() {
    assertThat(FleetTopics.writersStamped(kafka.bootstrapServers()))
        .containsExactly(Topics.DEADLETTER, Topics.NODES, Topics.TRANSFERS);
    var run = Cli.run("replay", "--bootstrap-servers", kafka.bootstrapServers(), "--until", "2025-06-01T00:00:00Z");
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.err()).contains("kvfleet replay: note: kvfleet.deadletter, kvfleet.nodes, kvfleet.transfers keep"
        + " their writers' record stamps");
  }

  @Test
  void aReplayFromKafkaReachesTheReferenceOnOneThreadAndDecodingOnAPool() {
    String reference = reference();

    assertThat(hashOf(LogSource.Kafka.of(kafka.bootstrapServers()), 0)).isEqualTo(reference);
    assertThat(hashOf(LogSource.Kafka.of(kafka.bootstrapServers()), 2)).isEqualTo(reference);
  }

  @Test
  void theExportKeepsEveryRecordAndReplaysToTheReference() {
    Path export = dir.resolve("mixed.jsonl.zst");
    var summary = Exporter.export(new Exporter.Options(kafka.bootstrapServers(), Topics.ALL, Map.of(), null, null, null),
        export, Clock.systemUTC(), false);

    assertThat(summary.records()).isEqualTo(events + POISON);
    assertThat(summary.malformed()).isEqualTo(2); // not JSON and binary; {"a":1} is JSON, kept embedded
    assertThat(hashOf(new LogSource.File(export), 0)).isEqualTo(reference());
    assertThat(hashOf(new LogSource.File(export), 2)).isEqualTo(reference());
  }
}
