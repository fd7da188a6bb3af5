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
 * topic already holds a copy of (a previous incarnation copied it) is not copied again. Owned by
 * the coordinator's event loop.
 */
final class PoisonRecords {
  private static final Logger LOG = LoggerFactory.getLogger(PoisonRecords.class);
  private static final EventCodec CODEC = new EventCodec();
  /** Poison kept for a partition this coordinator does not own (yet) before the oldest is dropped. */
  private static final int MAX_PENDING = 10_000;

  private record Poison(String topic, int partition, long offset, String key, byte[] value, String reason) {}

  private final DeadLetters deadLetters;
  private final Set<String> copied;
  private final List<Poison> pending = new ArrayList<>();
  private long count;

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
    LOG.warn("cannot fold record {}-{}@{}: {}", topic, partition, offset, reason);
    if (pending.size() >= MAX_PENDING) {
      pending.removeFirst();
    }
    pending.add(new Poison(topic, partition, offset, key, bytes(value), reason));
  }

  /** Copies what waits for a partition {@code ownership} now gives this coordinator. */
  void flush(Ownership ownership) {
    for (Iterator<Poison> it = pending.iterator(); it.hasNext(); ) {
      Poison p = it.next();
      if (!ownership.ownsPartition(p.partition())) {
        continue;
      }
      it.remove();
      if (deadLetters != null && copied.add(DeadLetters.keyOf(p.topic(), p.partition(), p.offset()))) {
        deadLetters.copy(p.topic(), p.partition(), p.offset(), p.key(), p.value(), p.reason());
      }
    }
  }

  /** Poison records read so far. */
  long count() {
    return count;
  }

  private static byte[] bytes(Decoded value) {
    return switch (value) {
      case null -> null;
      case Decoded.Malformed m -> m.raw();
      case Decoded.Event e -> e.raw().length > 0 ? e.raw() : CODEC.encode(e.envelope()); // as read: its signature too
    };
  }
}
