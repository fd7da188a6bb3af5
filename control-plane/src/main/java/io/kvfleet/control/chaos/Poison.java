package io.kvfleet.control.chaos;

import io.kvfleet.control.kafka.DeadLetters;
import io.kvfleet.control.kafka.KafkaClients;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.EventCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Poison records of every kind, written by an outside producer the way a broken or hostile client
 * would: tombstones, bytes that are not JSON, an event on the wrong topic, unknown types, a request
 * at a future schema version and one with an empty range (those two name a transfer id, so each
 * must still end exactly once).
 */
final class Poison {
  /** What was written: where each poison record landed, and the requests among them that must end. */
  record Written(List<String> positions, List<String> requests) {
    static final Written NONE = new Written(List.of(), List.of());

    Written plus(Written more) {
      var p = new ArrayList<>(positions);
      p.addAll(more.positions);
      var r = new ArrayList<>(requests);
      r.addAll(more.requests);
      return new Written(p, r);
    }

    int count() {
      return positions.size();
    }

    List<String> unendedIds(Tally tally) {
      return requests.stream().filter(id -> tally.endings(id) == 0).map(id -> id + ": no ending").toList();
    }

    long unended(Tally tally) {
      return requests.stream().filter(id -> tally.endings(id) == 0).count();
    }

    long endedTwice(Tally tally) {
      return requests.stream().filter(id -> tally.endings(id) > 1).count();
    }
  }

  private Poison() {}

  /** Writes one of each kind (round {@code round}), keyed by {@code node}; answers what landed where. */
  static Written write(String bootstrap, String node, int round) {
    String future = "poison-" + round + "-future";
    String empty = "poison-" + round + "-empty";
    var heartbeat = new EventCodec().encode(Envelope.of("poison", EPOCH, SEQUENCE.incrementAndGet(), Instant.now(), "",
        new PeerHeartbeat(node, 1, 3000)));
    var records = List.of(
        record(Topics.TRANSFERS, node, null),
        record(Topics.NODES, node, null),
        record(Topics.TRANSFERS, node, "\u0000not json at all"),
        record(Topics.NODES, node, "{\"specversion\": \"1.0\", \"truncated"),
        new ProducerRecord<>(Topics.TRANSFERS, node.getBytes(StandardCharsets.UTF_8), heartbeat),
        record(Topics.TRANSFERS, node, document("io.kvfleet.transfer.teleported", 1, "poison-" + round + "-unknown",
            "{\"transferId\": \"poison-" + round + "-unknown\", \"sourceNode\": \"" + node + "\"}")),
        record(Topics.NODES, node, document("io.kvfleet.peer.hibernated", 1, node, "{\"nodeId\": \"" + node + "\"}")),
        record(Topics.TRANSFERS, node, document("io.kvfleet.transfer.requested", 99, future,
            "{\"transferId\": \"" + future + "\", \"sourceNode\": \"" + node + "\", \"teleport\": true}")),
        // Valid JSON whose number no BigDecimal holds: once the codec threw on it, and the replay died. A
        // producer of its own: unreadable, it is never folded, so it must not take one of poison's numbers.
        record(Topics.TRANSFERS, node, document("poison-number-" + round, 1, "io.kvfleet.transfer.timed_out", 1,
            "poison-" + round + "-number",
            "{\"transferId\": \"poison-" + round + "-number\", \"sourceNode\": \"" + node
                + "\", \"deadlineMillis\": 1E48779230000}")));
    var positions = new ArrayList<String>();
    try (var producer = producer(bootstrap)) {
      for (var r : records) {
        var meta = producer.send(r).get(60, TimeUnit.SECONDS);
        positions.add(DeadLetters.keyOf(meta.topic(), meta.partition(), meta.offset()));
      }
      // Its own producer: a record the codec refuses hides its sequence number, which would be a gap.
      producer.send(record(Topics.TRANSFERS, node, document("poison-invalid-" + round, 1,
          "io.kvfleet.transfer.requested", 1, empty, """
          {"transferId": "%s", "sourceNode": "%s", "sourceEpoch": 1, "sourceRegion": "kv_data-0",
           "destinationNode": "decode-0", "destinationEpoch": 1, "destinationRegion": "kv_data-0", "op": "WRITE",
           "ranges": [{"sourceOffset": 0, "destinationOffset": 0, "length": 0}],
           "deadlineMillis": %d, "checksum": false}""".formatted(empty, node, System.currentTimeMillis() + 5000))))
          .get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("cannot write poison records to " + bootstrap, e);
    }
    return new Written(positions, List.of(future, empty));
  }

  /** How many of {@code written}'s records the dead-letter topic holds (each origin, its key, counted once). */
  static long deadLettered(String bootstrap, Written written) {
    Set<String> found = new HashSet<>();
    try (var consumer = KafkaClients.consumer(bootstrap, Map.<String, Object>of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      var partitions = consumer.partitionsFor(Topics.DEADLETTER, Duration.ofSeconds(30)).stream()
          .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      var ends = consumer.endOffsets(partitions, Duration.ofSeconds(30));
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p)) && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(500)).forEach(r -> found.add(new String(r.key(), StandardCharsets.UTF_8)));
      }
    }
    return written.positions().stream().filter(found::contains).count();
  }

  private static ProducerRecord<byte[], byte[]> record(String topic, String key, String value) {
    return new ProducerRecord<>(topic, key.getBytes(StandardCharsets.UTF_8),
        value == null ? null : value.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * A CloudEvent from the outside producer {@code poison}: each with a sequence number of its own (a
   * broken client, not a forger; a forged reuse of a producer's numbers is the trust issue's to refuse).
   */
  private static String document(String type, int version, String subject, String data) {
    return document("poison", SEQUENCE.incrementAndGet(), type, version, subject, data);
  }

  private static String document(String producer, long sequence, String type, int version, String subject,
      String data) {
    return """
        {"specversion": "1.0", "id": "%s", "source": "/kvfleet/%s", "type": "%s", "subject": "%s",
         "time": "%s", "datacontenttype": "application/json", "producer": "%s", "epoch": "%d",
         "sequence": "%d", "schemaversion": %d, "data": %s}""".formatted(java.util.UUID.randomUUID(), producer, type,
        subject, Instant.now(), producer, EPOCH, sequence, version, data);
  }

  /** The poison producer's incarnation in this JVM, and its numbering. */
  private static final long EPOCH = System.currentTimeMillis();
  private static final java.util.concurrent.atomic.AtomicLong SEQUENCE = new java.util.concurrent.atomic.AtomicLong();

  private static KafkaProducer<byte[], byte[]> producer(String bootstrap) {
    return KafkaClients.producer(bootstrap, Map.<String, Object>of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
        ProducerConfig.ACKS_CONFIG, "all"), new ByteArraySerializer(), new ByteArraySerializer());
  }
}
