package io.kvfleet.control.coordinator;

import io.kvfleet.control.kafka.DeadLetters;
import io.kvfleet.events.OpaqueEvent;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EventCodec;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records the coordinator cannot fold (a tombstone, undecodable bytes, an unknown or newer event
 * type, an event on the wrong topic): counted, and copied with the reason to the dead-letter topic
 * by the coordinator that owns the record's partition, once it decides. A record the dead-letter
 * topic already holds a copy of (a previous incarnation copied it) is not copied again. While it
 * waits (a coordinator catching up copies nothing), its key and value are kept only within
 * {@link #MAX_PENDING_BYTES}; past that only where it is and why, and the copy reads it again from
 * the log, so a writer of large junk cannot fill the heap of every coordinator that catches up.
 * Owned by the coordinator's event loop.
 */
final class PoisonRecords {
  private static final Logger LOG = LoggerFactory.getLogger(PoisonRecords.class);
  private static final EventCodec CODEC = new EventCodec();
  /** Bytes of keys and values kept for the copies that wait; past it a copy is read again from the log. */
  static final long MAX_PENDING_BYTES = 16L << 20;
  /** Poison records that may wait (each then costs its origin and reason only); more are counted and logged. */
  static final int MAX_PENDING = 50_000;
  /** The most of a reason kept: a reason may quote the record (an unknown type's name). */
  private static final int MAX_REASON = 512;

  /** A record waiting for its copy; {@code kept} false: its key and value are to be read again from the log. */
  private record Poison(
      String topic, int partition, long offset, String key, byte[] value, boolean kept, String reason) {
    long bytes() {
      return (key == null ? 0 : key.length()) + (value == null ? 0 : value.length);
    }
  }

  private final DeadLetters deadLetters;
  private final Set<String> copied;
  private final List<Poison> pending = new ArrayList<>();
  private long pendingBytes;
  private long count;
  private long dropped;
  private final io.kvfleet.control.LogSampling logged = new io.kvfleet.control.LogSampling();

  /** Copies through {@code deadLetters} (none: counts only), skipping the keys in {@code copied}. */
  PoisonRecords(DeadLetters deadLetters, Set<String> copied) {
    this.deadLetters = deadLetters;
    this.copied = copied;
  }

  /** Why the record cannot be folded as it should, if it cannot; {@code value} null is a tombstone. */
  static Optional<String> why(String topic, Decoded value) {
    return switch (value) {
      case null -> Optional.of("tombstone (null value)");
      case Decoded.Malformed m -> Optional.of("malformed: " + m.reason());
      case Decoded.Event e when e.envelope().data() instanceof OpaqueEvent o -> Optional.of("unreadable type "
          + o.wireType() + " version " + o.schemaVersion() + " (kept as opaque data)");
      case Decoded.Event e when !Topics.topicOf(e.envelope()).equals(topic) -> Optional.of("wrong topic: "
          + e.envelope().type() + " belongs on " + Topics.topicOf(e.envelope()));
      case Decoded.Event e -> Optional.empty();
    };
  }

  /** Notes a poison record; copied at the next {@link #flush} that finds its partition owned. */
  void add(String topic, int partition, long offset, String key, Decoded value, String reason) {
    count++;
    String why = reason.length() <= MAX_REASON ? reason : reason.substring(0, MAX_REASON) + "...";
    if (logged.next()) {
      LOG.warn("cannot fold record {}-{}@{}: {}{}", topic, partition, offset, why, logged.note());
    }
    if (pending.size() >= MAX_PENDING) {
      dropped++;
      if (dropped == 1 || dropped % 1_000 == 0) {
        LOG.error("{} poison records will not be copied to the dead-letter topic (the latest {}-{}@{}): {} already"
            + " wait for a partition this coordinator does not own yet", dropped, topic, partition, offset, MAX_PENDING);
      }
      return;
    }
    var poison = new Poison(topic, partition, offset, key, bytes(value), true, why);
    if (pendingBytes + poison.bytes() > MAX_PENDING_BYTES) {
      poison = new Poison(topic, partition, offset, null, null, false, why); // read again when copied
    }
    pendingBytes += poison.bytes();
    pending.add(poison);
  }

  /** Copies what waits for a partition {@code ownership} now gives this coordinator. */
  void flush(Ownership ownership) {
    for (Iterator<Poison> it = pending.iterator(); it.hasNext(); ) {
      Poison p = it.next();
      if (!ownership.ownsPartition(p.partition())) {
        continue;
      }
      it.remove();
      pendingBytes -= p.bytes();
      if (deadLetters == null || !copied.add(DeadLetters.keyOf(p.topic(), p.partition(), p.offset()))) {
        continue;
      }
      if (p.kept()) {
        deadLetters.copy(p.topic(), p.partition(), p.offset(), p.key(), p.value(), p.reason());
      } else {
        deadLetters.copyFromLog(p.topic(), p.partition(), p.offset(), p.reason());
      }
    }
  }

  /** Poison records read so far. */
  long count() {
    return count;
  }

  /** Poison records not copied because too many waited (each logged, in batches). */
  long dropped() {
    return dropped;
  }

  /** Poison records waiting for their copy. */
  int pending() {
    return pending.size();
  }

  /** Bytes of the keys and values kept for the copies that wait: at most {@link #MAX_PENDING_BYTES}. */
  long pendingBytes() {
    return pendingBytes;
  }

  private static byte[] bytes(Decoded value) {
    return switch (value) {
      case null -> null;
      case Decoded.Malformed m -> m.raw();
      case Decoded.Event e -> e.raw().length > 0 ? e.raw() : CODEC.encode(e.envelope()); // as read: its signature too
    };
  }
}
