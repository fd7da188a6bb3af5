package io.kvfleet.control.coordinator;

import io.vertx.core.Future;
import io.vertx.kafka.client.common.TopicPartition;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * How much of the node events the coordinator has seen: the wall time before which it has read
 * them all (the time it last asked Kafka for the node topic's end offsets, once everything before
 * the offsets Kafka answered is folded), and since when it has watched without a break. A lease
 * runs out only within that watch, so a coordinator cut off from Kafka (a broker restart, a
 * network partition, a long lag) does not take the heartbeats it could not read for silence. A
 * break is a slow answer or a long step between two readings; the watch then starts again when
 * the answer came, and each peer has a whole lease for a heartbeat written after it to come
 * through. Owned by the coordinator's event loop.
 */
final class NodesView {
  /** How often the end offsets are asked for: a lost peer is declared at most this much later. */
  static final long PROBE_EVERY_MILLIS = 1_000;
  /** A longer wait for an answer, or a longer step between two readings, is a break in the watch. */
  static final long BREAK_MILLIS = 3 * PROBE_EVERY_MILLIS;

  private long readUntil = Long.MIN_VALUE;
  private long watchedSince = Long.MIN_VALUE;
  private long askedAt = Long.MIN_VALUE;
  private boolean asking;
  private Map<TopicPartition, Long> answered;
  private long answeredFor;
  private long answeredAt;

  /** A view that has watched from {@code since} and read everything before {@code until} (for tests). */
  static NodesView watched(long since, long until) {
    var view = new NodesView();
    view.watchedSince = since;
    view.readUntil = until;
    return view;
  }

  /**
   * Whether a peer whose lease ends at {@code leaseEnd}, of {@code leaseMillis}, is known to have
   * been silent past it: the end is before what was read, and the watch has lasted a whole lease.
   */
  boolean outlived(long leaseEnd, long leaseMillis) {
    return readUntil != Long.MIN_VALUE && leaseEnd < readUntil && readUntil - watchedSince > leaseMillis;
  }

  /** The wall time before which everything in the watched partitions is folded; {@code Long.MIN_VALUE} before the first reading. */
  long readUntil() {
    return readUntil;
  }

  /**
   * Moves the view on with what is {@code folded} and, when it is time, asks {@code ends} for the
   * end offsets and takes the answer at {@code clock}'s time.
   */
  void probe(CatchUp folded, long now, Supplier<Future<Map<TopicPartition, Long>>> ends, LongSupplier clock) {
    check(folded);
    if (ask(now)) {
      ends.get().onComplete(answer -> answer(answer.succeeded() ? answer.result() : null, clock.getAsLong()));
    }
  }

  /** Whether to ask for the end offsets now; if so, the caller asks and reports with {@link #answer}. */
  boolean ask(long now) {
    if (asking || answered != null || (askedAt != Long.MIN_VALUE && now - askedAt < PROBE_EVERY_MILLIS)) {
      return false;
    }
    asking = true;
    askedAt = now;
    return true;
  }

  /** Kafka's answer, at {@code now}, to the last question; null when it could not answer (nothing moves). */
  void answer(Map<TopicPartition, Long> ends, long now) {
    asking = false;
    answered = ends;
    answeredFor = askedAt;
    answeredAt = now;
  }

  /** Moves the view on once everything before the answered end offsets is folded. */
  void check(CatchUp folded) {
    if (answered == null || !folded.hasRead(answered)) {
      return;
    }
    boolean broken = readUntil == Long.MIN_VALUE || answeredAt - answeredFor > BREAK_MILLIS
        || answeredFor - readUntil > BREAK_MILLIS;
    if (broken) {
      // Heartbeats written before the question may have reached Kafka only after it was asked.
      watchedSince = answeredAt;
    }
    readUntil = Math.max(readUntil, answeredFor);
    answered = null;
  }
}
