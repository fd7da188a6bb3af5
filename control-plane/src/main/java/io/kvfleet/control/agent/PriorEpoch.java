package io.kvfleet.control.agent;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.kafka.KafkaClients;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EnvelopeDeserializer;
import io.kvfleet.events.trust.Verdict;
import io.kvfleet.events.trust.Verifier;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidOffsetException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The highest epoch at which the node topic holds a join of a node, so that a starting agent joins above it. The
 * fleet takes a join only above the node's current epoch and ignores any other; an agent that joined below it would
 * serve a node the fleet holds lost, unnoticed. Its epoch is its clock's milliseconds, so it joins below whenever its
 * clock is behind the one of its node's last incarnation (a clock stepped back, a node moved to another host), and it
 * would never join again above a forged join at a huge epoch.
 *
 * <p>It reads the node's partition back from its end, a window at a time, each twice the size of the newer one. Only
 * joins set the epoch: the fold ignores a heartbeat, departure or loss at any epoch but the current one, so one at a
 * huge epoch says nothing. Such a record only sends the read further back, to its incarnation's join (a node's join
 * comes before its heartbeats, often far before); the read stops once it holds a join at least as high as every
 * record it read, at the partition's beginning, or else at one of its bounds: {@link #BUDGET} records,
 * {@link #READING} of time, or {@link #REFUSALS} records under the node's key that {@code verifier} refuses (each
 * refusal may cost a signature check, so a writer without a key could otherwise hold a start up). Past a bound it
 * says how far it read and the agent joins at its clock, as it did before this read: the read keeps a node from
 * starting only when Kafka does not answer, or when the log holds a join of the node at the largest epoch there is
 * (which only an unsigned fleet takes from a stranger). Only records the fleet would trust count, only those about this
 * node, and only one above what was already found is checked.
 */
public final class PriorEpoch {
  static final int FIRST_WINDOW = 4_096;
  /** Records read back at most: a few seconds of reading. */
  static final long BUDGET = 2_000_000;
  /** The time Kafka has to answer where the node's partition is and what it holds; past it, Kafka is away. */
  private static final Duration METADATA = Duration.ofSeconds(30);
  /** The read back's time, once Kafka has answered. */
  static final Duration READING = Duration.ofSeconds(10);
  /** Records refused by the verifier after which the read stops. */
  static final int REFUSALS = 1_000;
  private static final Duration POLL = Duration.ofMillis(200);

  /**
   * What the read found.
   *
   * @param highest the highest epoch of a trusted join of the node, if any
   * @param offset that join's offset (-1 without one)
   * @param producer that join's producer (empty without one)
   * @param read how many records were read back
   * @param cutShort empty when the read stopped on its rule or at the partition's beginning, else the bound it met
   */
  public record Found(OptionalLong highest, long offset, String producer, long read, String cutShort) {

    /** Whether the read stopped on its rule or at the partition's beginning, not at a bound. */
    public boolean complete() {
      return cutShort.isEmpty();
    }

    /**
     * The epoch to join at: the clock's, or one above the highest join found when the clock is not above it.
     *
     * @throws KvfleetException when that join is at the largest epoch there is, which no join can go above
     */
    public long joinAt(String nodeId, long clock) {
      if (!behind(clock)) {
        return clock;
      }
      if (highest.getAsLong() == Long.MAX_VALUE) {
        throw KvfleetException.epochsExhausted(nodeId, offset, producer);
      }
      return highest.getAsLong() + 1;
    }

    /** What an operator should know: the clock is behind a join in the log, or the read stopped at its budget. */
    public Optional<String> warning(String nodeId, long clock) {
      if (behind(clock)) {
        return Optional.of("node " + nodeId + ": the log holds a join of " + nodeId + " at epoch "
            + highest.getAsLong() + " (offset " + offset + " of " + Topics.NODES + ", written as '" + producer
            + "'), not below this host's clock (" + clock + "): it joins at " + joinAt(nodeId, clock) + " so that"
            + " the fleet takes the join. Either this host's clock is behind the one " + nodeId + " last ran on,"
            + " another agent serves as " + nodeId + " now (it steps aside), or someone wrote that record (sign the"
            + " fleet: docs/SECURITY.md)");
      }
      if (!complete()) {
        return Optional.of("node " + nodeId + ": read " + read + " records back in " + Topics.NODES + " (stopped "
            + cutShort + ") and found"
            + " no join of " + nodeId + " as high as its newest records; it joins " + (highest.isPresent()
            ? "at its clock (" + clock + "), above the highest join it found (" + highest.getAsLong() + ")"
            : "at its clock (" + clock + ")") + ", which the fleet ignores if an older join was higher");
      }
      return Optional.empty();
    }

    private boolean behind(long clock) {
      return highest.isPresent() && highest.getAsLong() >= clock;
    }
  }

  private PriorEpoch() {}

  /** Reads back the partition of {@link Topics#NODES} that holds {@code nodeId}'s records (its key). Blocks. */
  public static Found read(String bootstrapServers, String nodeId, Verifier verifier) {
    return read(bootstrapServers, nodeId, verifier, BUDGET);
  }

  static Found read(String bootstrapServers, String nodeId, Verifier verifier, long budget) {
    long deadline = System.nanoTime() + METADATA.toNanos();
    try (var consumer = KafkaClients.consumer(bootstrapServers, Map.of("client.id", "kvfleet-" + nodeId
            + "-prior-epoch", "enable.auto.commit", "false", "isolation.level", "read_committed",
            "auto.offset.reset", "none", "max.poll.records", FIRST_WINDOW),
        new StringDeserializer(), new ByteArrayDeserializer())) {
      var infos = consumer.partitionsFor(Topics.NODES, left(deadline));
      if (infos.isEmpty()) {
        throw KvfleetException.noSuchTopic(Topics.NODES, bootstrapServers);
      }
      var partition = new TopicPartition(Topics.NODES, OwnLossWatch.partition(nodeId, infos.size()));
      consumer.assign(List.of(partition));
      long end = consumer.endOffsets(List.of(partition), left(deadline)).get(partition);
      long begin = beginning(consumer, partition, deadline);
      deadline = System.nanoTime() + READING.toNanos(); // Kafka answered: the read back is bounded on its own
      var scan = new Scan(nodeId, verifier);
      long to = end;
      long window = FIRST_WINDOW;
      while (to > begin && !scan.done()) {
        if (scan.read >= budget) {
          return scan.found("at its budget of " + budget + " records");
        }
        long from = Math.max(begin, Math.max(to - window, to - (budget - scan.read)));
        try {
          try {
            readRange(consumer, partition, from, to, scan, deadline);
          } catch (InvalidOffsetException gone) { // retention deleted the window's start while it was read
            begin = beginning(consumer, partition, deadline);
            continue;
          }
        } catch (TimeoutException | org.apache.kafka.common.errors.TimeoutException e) {
          return scan.found("after " + READING.toSeconds() + " s");
        }
        if (scan.refused >= REFUSALS) { // the window was left part-read
          return scan.found("after " + scan.refused + " records under its key that the trust file refuses");
        }
        to = from;
        window *= 2;
      }
      return scan.found("");
    } catch (KafkaException e) {
      throw KvfleetException.kafkaUnreachable(bootstrapServers, e);
    } catch (TimeoutException e) {
      throw KvfleetException.kafkaUnreachable(bootstrapServers, new TimeoutException("finding " + nodeId
          + "'s partition of " + Topics.NODES + " and its offsets took over " + METADATA.toSeconds() + " s"));
    }
  }

  private static void readRange(KafkaConsumer<String, byte[]> consumer, TopicPartition partition, long from, long to,
      Scan scan, long deadline) throws TimeoutException {
    consumer.seek(partition, from);
    while (consumer.position(partition, left(deadline)) < to && scan.refused < REFUSALS) {
      Duration left = left(deadline);
      for (var record : consumer.poll(left.compareTo(POLL) < 0 ? left : POLL)) {
        if (record.offset() < to && scan.refused < REFUSALS) {
          scan.take(record);
        }
      }
    }
  }

  private static long beginning(KafkaConsumer<?, ?> consumer, TopicPartition partition, long deadline)
      throws TimeoutException {
    return consumer.beginningOffsets(List.of(partition), left(deadline)).get(partition);
  }

  /** The time left before {@code deadline}; a {@link TimeoutException} once there is none. */
  private static Duration left(long deadline) throws TimeoutException {
    long nanos = deadline - System.nanoTime();
    if (nanos <= 0) {
      throw new TimeoutException();
    }
    return Duration.ofNanos(nanos);
  }

  /** What the reading back has seen so far, window by window, newest first. */
  private static final class Scan {
    private final String nodeId;
    private final Verifier verifier;
    private final EnvelopeDeserializer decoder = new EnvelopeDeserializer();
    private long read;
    private int refused;
    private long highestJoin = Long.MIN_VALUE;
    private long offset = -1;
    private String producer = "";
    private long highestOther = Long.MIN_VALUE;

    Scan(String nodeId, Verifier verifier) {
      this.nodeId = nodeId;
      this.verifier = verifier;
    }

    void take(ConsumerRecord<String, byte[]> record) {
      read++;
      if (!nodeId.equals(record.key()) || record.value() == null) {
        return; // another node's record, or a tombstone: not decoded
      }
      if (!(decoder.deserialize(record.topic(), record.headers(), record.value()) instanceof Decoded.Event e)) {
        return;
      }
      FleetEvent event = e.envelope().data();
      boolean join = event instanceof PeerJoined j && j.nodeId().equals(nodeId);
      OptionalLong epoch = join ? OptionalLong.of(((PeerJoined) event).epoch()) : epochOf(event);
      // Only a record that would raise what was found is checked: a check may cost a signature's verification.
      if (epoch.isEmpty() || epoch.getAsLong() <= (join ? highestJoin : Math.max(highestJoin, highestOther))) {
        return;
      }
      if (!(verifier.check(e.raw(), e.envelope(), id -> Optional.empty()) instanceof Verdict.Trusted)) {
        refused++;
        return;
      }
      if (join) {
        highestJoin = epoch.getAsLong();
        offset = record.offset();
        producer = e.envelope().producer();
      } else {
        highestOther = epoch.getAsLong();
      }
    }

    private OptionalLong epochOf(FleetEvent event) {
      return switch (event) {
        case PeerHeartbeat h when h.nodeId().equals(nodeId) -> OptionalLong.of(h.epoch());
        case PeerLeft l when l.nodeId().equals(nodeId) -> OptionalLong.of(l.epoch());
        case PeerLost l when l.nodeId().equals(nodeId) -> OptionalLong.of(l.epoch());
        default -> OptionalLong.empty();
      };
    }

    /** Whether a join was read that is at least as high as every record of the node read. */
    boolean done() {
      return offset >= 0 && highestJoin >= highestOther;
    }

    Found found(String cutShort) {
      return new Found(offset < 0 ? OptionalLong.empty() : OptionalLong.of(highestJoin), offset, producer, read,
          cutShort);
    }
  }
}
