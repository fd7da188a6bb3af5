package io.kvfleet.control.agent;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.kafka.KafkaClients;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.trust.Verdict;
import io.kvfleet.events.trust.Verifier;
import io.kvfleet.events.codec.EnvelopeDeserializer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.kafka.client.common.TopicPartition;
import io.vertx.kafka.client.consumer.KafkaConsumer;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads the node topic's partition that holds this node's events (its key, murmur2 like every
 * kvfleet producer) from the moment the agent joined, and calls back when the fleet declares an
 * epoch of this node lost (the log is the authority, so an agent that reads its own loss stops
 * and rejoins whatever its own lease says), and on every join under this node id. Runs on the agent's event loop; its Kafka client is
 * built on a worker.
 */
final class OwnLossWatch {
  private final KafkaConsumer<String, Decoded> consumer;
  private final String nodeId;

  private OwnLossWatch(KafkaConsumer<String, Decoded> consumer, String nodeId) {
    this.consumer = consumer;
    this.nodeId = nodeId;
  }

  /**
   * Starts reading from the partition's end; {@code lost} gets the epoch of each loss of this node it reads that
   * {@code verifier} trusts (a forged {@code peer.lost} does not fence a healthy agent in a signed fleet).
   */
  static Future<OwnLossWatch> start(Vertx vertx, String bootstrapServers, String nodeId, Verifier verifier,
      Consumer<Long> lost, Consumer<PeerJoined> joined) {
    return KafkaClients.<String, Decoded>vertxConsumer(vertx, bootstrapServers, Map.of(
            "client.id", "kvfleet-" + nodeId + "-own-loss", "enable.auto.commit", "false",
            "auto.offset.reset", "latest"), new StringDeserializer(), new EnvelopeDeserializer())
        .compose(consumer -> closedOnFailure(consumer, fromTheEnd(consumer, bootstrapServers, Topics.NODES, nodeId)
            // The handler last, as in OrderLog: with it Vert.x starts polling, and tasks wait behind a poll.
            .map(start -> new OwnLossWatch(consumer.handler(record -> {
              if (!(record.value() instanceof Decoded.Event e)
                  || !(verifier.check(e.raw(), e.envelope(), id -> java.util.Optional.empty()) instanceof Verdict.Trusted)) {
                return;
              }
              if (e.envelope().data() instanceof PeerLost l && l.nodeId().equals(nodeId)) {
                lost.accept(l.epoch());
              } else if (e.envelope().data() instanceof PeerJoined j && j.nodeId().equals(nodeId)) {
                joined.accept(j);
              }
            }), nodeId))));
  }

  /**
   * Assigns {@code consumer} the partition of {@code topic} that holds {@code key} and fixes its
   * start at the partition's end as it is now (before the join is published); answers that offset.
   */
  static Future<Long> fromTheEnd(KafkaConsumer<?, ?> consumer, String bootstrapServers, String topic, String key) {
    return consumer.partitionsFor(topic)
        .compose(infos -> infos.isEmpty() ? Future.failedFuture(KvfleetException.noSuchTopic(topic, bootstrapServers))
            : Future.succeededFuture(new TopicPartition(topic, partition(key, infos.size()))))
        .compose(tp -> consumer.assign(Set.of(tp)).compose(v -> consumer.seekToEnd(Set.of(tp)))
            .compose(v -> consumer.position(tp)));
  }

  /** {@code opening}, after closing {@code consumer} when it failed: a reader that did not open holds nothing. */
  static <T> Future<T> closedOnFailure(KafkaConsumer<?, ?> consumer, Future<T> opening) {
    return opening.recover(failure -> consumer.close().transform(closed -> Future.<T>failedFuture(failure)));
  }

  /** The partition Kafka's default partitioner gives a record keyed {@code key}. */
  static int partition(String key, int partitions) {
    return io.kvfleet.control.kafka.TransferPlacement.partitionOf(key, partitions);
  }

  Future<Void> close() {
    return consumer.close();
  }

  String nodeId() {
    return nodeId;
  }
}
