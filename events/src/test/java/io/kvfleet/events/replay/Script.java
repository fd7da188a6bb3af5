package io.kvfleet.events.replay;

import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.Topics;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.codec.Decoded;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A log as Kafka would hold it, written as a script: each event goes to its topic, to partition
 * (key hash mod 3), at the next offset, with the writer's next sequence number and the script's clock.
 */
final class Script {
  static final Instant T0 = Instant.parse("2025-06-01T10:40:00Z");

  private static final io.kvfleet.events.codec.EventCodec CODEC = new io.kvfleet.events.codec.EventCodec();
  private final List<LogRecord> records = new ArrayList<>();
  private final Map<String, Long> offsets = new HashMap<>();
  private final Map<String, Long> sequences = new HashMap<>();
  private Instant now = T0;

  /** Moves the clock to {@code hh:mm:ss[.SSS]} on the script's day. */
  Script at(String time) {
    now = Instant.parse("2025-06-01T" + time + "Z");
    return this;
  }

  Script after(Duration step) {
    now = now.plus(step);
    return this;
  }

  Script event(String producer, long epoch, FleetEvent event) {
    long sequence = sequences.merge(producer + "@" + epoch, 1L, Long::sum);
    return envelope(new Envelope("e-" + records.size(), producer, epoch, sequence, now, "", event));
  }

  /** A node's own event, written by the node at the epoch the event names. */
  Script node(String nodeId, long epoch, FleetEvent event) {
    return event(nodeId, epoch, event);
  }

  /** An event as {@code key} signs it (null: unsigned), read back from its bytes as a reader reads it. */
  Script signed(io.kvfleet.events.trust.FleetKey key, String producer, long epoch, long sequence, FleetEvent event) {
    var envelope = new Envelope("e-" + records.size(), producer, epoch, sequence, now, "", event);
    byte[] bytes = CODEC.encode(envelope);
    byte[] raw = key == null ? bytes : io.kvfleet.events.trust.SignedDocument.sign(bytes, key);
    String recordKey = Topics.keyOf(envelope);
    return record(Topics.topicOf(envelope), partition(recordKey), recordKey, CODEC.decode(raw));
  }

  /** {@code event} signed by {@code key}, with the producer's next sequence number, in partition {@code partition}. */
  Script signedIn(int partition, io.kvfleet.events.trust.FleetKey key, String producer, long epoch, FleetEvent event) {
    var envelope = new Envelope("e-" + records.size(), producer, epoch,
        sequences.merge(producer + "@" + epoch, 1L, Long::sum), now, "", event);
    return record(Topics.topicOf(envelope), partition, Topics.keyOf(envelope),
        CODEC.decode(io.kvfleet.events.trust.SignedDocument.sign(CODEC.encode(envelope), key)));
  }

  /** {@code event} signed by {@code key}, with the producer's next sequence number. */
  Script signed(io.kvfleet.events.trust.FleetKey key, String producer, long epoch, FleetEvent event) {
    return signed(key, producer, epoch, sequences.merge(producer + "@" + epoch, 1L, Long::sum), event);
  }

  Script envelope(Envelope envelope) {
    String key = Topics.keyOf(envelope);
    return record(Topics.topicOf(envelope), partition(key), key, new Decoded.Event(envelope));
  }

  Script record(String topic, int partition, String key, Decoded value) {
    String p = LogPosition.partitionKey(topic, partition);
    long offset = offsets.merge(p, 1L, Long::sum) - 1;
    records.add(new LogRecord(new LogPosition(topic, partition, offset), now, key, value));
    now = now.plusMillis(1);
    return this;
  }

  List<LogRecord> records() {
    return List.copyOf(records);
  }

  ReplayResult replay(ReplayOptions options) {
    var replay = new Replay(options);
    for (LogRecord r : records) {
      if (!replay.accept(r)) {
        break;
      }
    }
    return replay.finish();
  }

  static int partition(String key) {
    return Math.floorMod(key.hashCode(), 3);
  }

  static PeerJoined joined(String nodeId, long epoch) {
    return new PeerJoined(nodeId, epoch, "10.0.0.1", "", List.of(
        new BackendCapability("host", true, "", List.of(MemoryType.DRAM), List.of("memcpy"), "")));
  }

  static RegionSpec kv(String regionId) {
    return new RegionSpec(regionId, RegionKind.KV, MemoryType.DRAM, -1, 4096, 1 << 20, 16_384, "kv_data", 0);
  }

  static RegionRegistered registered(String nodeId, long epoch, String regionId) {
    return new RegionRegistered(nodeId, epoch, kv(regionId), "host", "rkey");
  }

  static TransferRequested request(String id, String source, long sourceEpoch, String destination, long destinationEpoch) {
    return new TransferRequested(id, source, sourceEpoch, "kv-0", destination, destinationEpoch, "kv-0",
        TransferOp.WRITE, List.of(new ByteRange(0, 16_384, 16_384)), T0.plusSeconds(3_600).toEpochMilli(), true);
  }
}
