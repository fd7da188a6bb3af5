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
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The highest epoch the node topic holds under a node id, so that a starting agent joins above it. The fleet takes a
 * join only above the node's current epoch and ignores any other; an agent that joined below it would serve a node
 * the fleet holds lost, unnoticed. Its epoch is its clock's milliseconds, so it joins below whenever its clock is
 * behind the one of its node's last incarnation (a clock stepped back, a node moved to another host), and it would
 * never join again above a forged join at a huge epoch.
 *
 * <p>It reads the node's partition back from its end, a window at a time (each twice the one after it), and stops
 * at the window that holds the join of the highest epoch read so far: what came before that join was written before
 * that incarnation began. Only records the fleet would trust count ({@code verifier}), and only those about this node
 * (a join, heartbeat, departure or loss). It gives up after {@link #BUDGET} records and says so: a node topic that
 * holds no record of the node in that many is one the node has not written to in a long time.
 */
public final class PriorEpoch {
  static final int FIRST_WINDOW = 4_096;
  /** Records read back at most: a few seconds of reading. */
  static final long BUDGET = 2_000_000;
  private static final Duration READING = Duration.ofSeconds(60);

  /**
   * What the read found.
   *
   * @param highest the highest epoch a trusted record about the node names, if any
   * @param offset the offset of the first record read that names it (-1 without one)
   * @param producer that record's producer (empty without one)
   * @param read how many records were read back
   * @param complete whether the read reached the join of {@code highest}, or the partition's beginning
   */
  public record Found(OptionalLong highest, long offset, String producer, long read, boolean complete) {

    /**
     * The epoch to join at: the clock's, or one above the highest found when the clock is not above it.
     *
     * @throws KvfleetException when the highest is the largest epoch there is, which no join can go above
     */
    public long joinAt(String nodeId, long clock) {
      if (highest.isEmpty() || highest.getAsLong() < clock) {
        return clock;
      }
      if (highest.getAsLong() == Long.MAX_VALUE) {
        throw KvfleetException.badInput("the log holds epoch " + Long.MAX_VALUE + " for node " + nodeId + " (offset "
            + offset + " of " + Topics.NODES + ", written as '" + producer + "'), the largest an epoch can be: no join"
            + " can take " + nodeId + " back. No kvfleet agent writes it (an agent's epoch is its clock's"
            + " milliseconds); whoever can write to Kafka can, unless the fleet is signed (docs/SECURITY.md). Start"
            + " this node under another --id");
      }
      return highest.getAsLong() + 1;
    }

    /** What an operator should know when the clock is not above the highest epoch found; empty when it is. */
    public Optional<String> warning(String nodeId, long clock) {
      if (highest.isEmpty() || highest.getAsLong() < clock) {
        return Optional.empty();
      }
      return Optional.of("node " + nodeId + ": the log holds epoch " + highest.getAsLong() + " for " + nodeId
          + " (offset " + offset + " of " + Topics.NODES + ", written as '" + producer + "'), not below this host's"
          + " clock (" + clock + "): it joins at " + joinAt(nodeId, clock) + " so that the fleet takes the join."
          + " Either this host's clock is behind the one " + nodeId + " last ran on, another agent serves as "
          + nodeId + " now (it steps aside), or someone wrote that record (sign the fleet: docs/SECURITY.md)");
    }
  }

  private PriorEpoch() {}

  /** Reads back the partition of {@link Topics#NODES} that holds {@code nodeId}'s records (its key). Blocks. */
  public static Found read(String bootstrapServers, String nodeId, Verifier verifier) {
    var decoder = new EnvelopeDeserializer();
    try (var consumer = KafkaClients.consumer(bootstrapServers, Map.of("client.id", "kvfleet-" + nodeId
            + "-prior-epoch", "enable.auto.commit", "false", "max.poll.records", FIRST_WINDOW),
        new StringDeserializer(), new ByteArrayDeserializer())) {
      var infos = consumer.partitionsFor(Topics.NODES, READING);
      if (infos.isEmpty()) {
        throw KvfleetException.noSuchTopic(Topics.NODES, bootstrapServers);
      }
      var partition = new TopicPartition(Topics.NODES, OwnLossWatch.partition(nodeId, infos.size()));
      consumer.assign(List.of(partition));
      long begin = consumer.beginningOffsets(List.of(partition), READING).get(partition);
      long end = consumer.endOffsets(List.of(partition), READING).get(partition);
      long deadline = System.nanoTime() + READING.toNanos();
      var scan = new Scan(nodeId, verifier, decoder);
      long to = end;
      long window = FIRST_WINDOW;
      while (to > begin && scan.read < BUDGET && !scan.reachedTheJoin()) {
        long from = Math.max(begin, to - window);
        consumer.seek(partition, from);
        while (consumer.position(partition, READING) < to) {
          if (System.nanoTime() > deadline) {
            throw KvfleetException.kafkaUnreachable(bootstrapServers, new java.util.concurrent.TimeoutException(
                "reading " + nodeId + "'s earlier epochs back from " + Topics.NODES + " took over " + READING));
          }
          for (var record : consumer.poll(Duration.ofMillis(200))) {
            if (record.offset() < to) {
              scan.take(record);
            }
          }
        }
        to = from;
        window *= 2;
      }
      return scan.found(to <= begin);
    }
  }

  /** What the reading back has seen so far, window by window, newest first. */
  private static final class Scan {
    private final String nodeId;
    private final Verifier verifier;
    private final EnvelopeDeserializer decoder;
    private long read;
    private long highest = Long.MIN_VALUE;
    private long offset = -1;
    private String producer = "";
    private boolean joinOfHighest;

    Scan(String nodeId, Verifier verifier, EnvelopeDeserializer decoder) {
      this.nodeId = nodeId;
      this.verifier = verifier;
      this.decoder = decoder;
    }

    void take(ConsumerRecord<String, byte[]> record) {
      read++;
      if (!nodeId.equals(record.key()) || record.value() == null) {
        return; // another node's record: not decoded
      }
      if (!(decoder.deserialize(record.topic(), record.headers(), record.value()) instanceof Decoded.Event e)
          || !(verifier.check(e.raw(), e.envelope(), id -> Optional.empty()) instanceof Verdict.Trusted)) {
        return;
      }
      OptionalLong epoch = epochOf(e.envelope().data());
      if (epoch.isEmpty()) {
        return;
      }
      long at = epoch.getAsLong();
      if (at > highest) {
        highest = at;
        offset = record.offset();
        producer = e.envelope().producer();
        joinOfHighest = false;
      }
      if (at == highest && e.envelope().data() instanceof PeerJoined) {
        joinOfHighest = true;
      }
    }

    private OptionalLong epochOf(FleetEvent event) {
      return switch (event) {
        case PeerJoined j when j.nodeId().equals(nodeId) -> OptionalLong.of(j.epoch());
        case PeerHeartbeat h when h.nodeId().equals(nodeId) -> OptionalLong.of(h.epoch());
        case PeerLeft l when l.nodeId().equals(nodeId) -> OptionalLong.of(l.epoch());
        case PeerLost l when l.nodeId().equals(nodeId) -> OptionalLong.of(l.epoch());
        default -> OptionalLong.empty();
      };
    }

    boolean reachedTheJoin() {
      return joinOfHighest;
    }

    Found found(boolean reachedTheBeginning) {
      return new Found(offset < 0 ? OptionalLong.empty() : OptionalLong.of(highest), offset, producer, read,
          joinOfHighest || reachedTheBeginning);
    }
  }
}
