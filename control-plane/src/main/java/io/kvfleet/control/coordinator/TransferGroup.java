package io.kvfleet.control.coordinator;

import io.kvfleet.control.kafka.KafkaClients;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EnvelopeDeserializer;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.kafka.client.common.TopicPartition;
import io.vertx.kafka.client.consumer.KafkaConsumer;
import io.vertx.kafka.client.consumer.KafkaConsumerRecord;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntConsumer;
import java.util.function.ObjLongConsumer;
import java.util.stream.Collectors;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A coordinator's membership in the group of coordinators that share the transfers topic: it
 * reads the partitions Kafka assigns it, and says which it took over (with the end offset it
 * must read before deciding for them) and which it lost. Runs on the coordinator's event loop.
 */
final class TransferGroup {
  private static final Logger LOG = LoggerFactory.getLogger(TransferGroup.class);
  /** How long to wait before asking Kafka again for the end offsets of assigned partitions. */
  private static final long ASK_AGAIN_MILLIS = 1_000;
  /**
   * How long a member waits after an assignment before it asks for the end: the member that had the
   * partition hears of its revocation from Vert.x only after the rebalance, and its decisions
   * already on their way land meanwhile. It narrows that window; it does not close it (a fenced
   * write would; RELIABILITY.md, "A rebalance made a coordinator dispatch twice").
   */
  static final long TAKEOVER_GRACE_MILLIS = 2_000;

  private final Vertx vertx;
  private final KafkaConsumer<String, Decoded> consumer;
  /**
   * Partitions assigned here whose end offsets are not known yet, each with the assignment that
   * gave it: an answer to an earlier assignment's question does not hand over a later one's.
   */
  private final Map<TopicPartition, Long> takingOver = new HashMap<>();
  private long assignments;

  private TransferGroup(Vertx vertx, KafkaConsumer<String, Decoded> consumer) {
    this.vertx = vertx;
    this.consumer = consumer;
  }

  /** A member of {@code group}, not joined yet; its Kafka client is built on a worker (the constructor blocks). */
  static Future<TransferGroup> open(Vertx vertx, String bootstrapServers, String coordinatorId, String group) {
    return KafkaClients.<String, Decoded>vertxConsumer(vertx, bootstrapServers,
            LogReader.groupConfig(bootstrapServers, coordinatorId, group), new StringDeserializer(),
            new EnvelopeDeserializer())
        .map(consumer -> new TransferGroup(vertx, consumer));
  }

  /**
   * Joins: {@code partitions} hears how many partitions the topic has before any record comes,
   * {@code records} gets every record read, {@code assigned} each partition taken over and its end
   * offset, asked for only once {@code ownWrites} of those partitions completes (so the end
   * covers what this member wrote to them before), {@code revoked} each partition lost.
   */
  Future<?> join(IntConsumer partitions, Handler<KafkaConsumerRecord<String, Decoded>> records,
      Function<Set<Integer>, Future<?>> ownWrites, ObjLongConsumer<Integer> assigned, IntConsumer revoked) {
    consumer.handler(records);
    consumer.partitionsRevokedHandler(lost -> lost.forEach(tp -> {
      takingOver.remove(tp);
      revoked.accept(tp.getPartition());
    }));
    consumer.partitionsAssignedHandler(taken -> {
      long assignment = ++assignments;
      taken.forEach(tp -> takingOver.put(tp, assignment));
      var numbers = taken.stream().map(TopicPartition::getPartition).collect(Collectors.toSet());
      vertx.setTimer(TAKEOVER_GRACE_MILLIS,
          t -> ownWrites.apply(numbers).onComplete(written -> takeOver(taken, assignment, assigned)));
    });
    return consumer.partitionsFor(Topics.TRANSFERS).compose(infos -> {
      partitions.accept(infos.size());
      return consumer.subscribe(Topics.TRANSFERS);
    });
  }

  Future<?> close() {
    return consumer.close();
  }

  /**
   * Hands over newly assigned partitions once their end offsets are known. When Kafka cannot say
   * (a broker flapping during the rebalance) it asks again for those still assigned, rather than
   * leave partitions with an owner that decides nothing for them.
   */
  private void takeOver(Set<TopicPartition> taken, long assignment, ObjLongConsumer<Integer> assigned) {
    var still = taken.stream().filter(tp -> takingOver.getOrDefault(tp, -1L) == assignment)
        .collect(Collectors.toSet());
    if (still.isEmpty()) {
      return; // revoked, or assigned again since: that assignment asks for itself
    }
    consumer.endOffsets(still).onComplete(ends -> {
      if (ends.failed()) {
        LOG.warn("no end offsets for transfer partitions {}, asking again: {}", still, ends.cause().getMessage());
        vertx.setTimer(ASK_AGAIN_MILLIS, t -> takeOver(still, assignment, assigned));
        return;
      }
      ends.result().forEach((tp, end) -> {
        if (takingOver.remove(tp, assignment)) {
          assigned.accept(tp.getPartition(), end);
        }
      });
    });
  }
}
