package io.kvfleet.control.coordinator;

import io.kvfleet.control.kafka.KafkaClients;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EnvelopeDeserializer;
import io.vertx.core.Context;
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

  private final Vertx vertx;
  private final KafkaConsumer<String, Decoded> consumer;
  /**
   * Partitions assigned here whose end offsets are not known yet, each with the assignment that
   * gave it: an answer to an earlier assignment's question does not hand over a later one's.
   */
  private final Map<TopicPartition, Long> takingOver = new HashMap<>();
  private final OnRevocation onRevocation;
  private long assignments;

  private TransferGroup(Vertx vertx, KafkaConsumer<String, Decoded> consumer, OnRevocation onRevocation) {
    this.vertx = vertx;
    this.consumer = consumer;
    this.onRevocation = onRevocation;
  }

  /**
   * A member of {@code group}, not joined yet; its Kafka client is built on a worker (the constructor
   * blocks). A revocation stops deciding on {@code context}, the coordinator's event loop.
   */
  static Future<TransferGroup> open(Vertx vertx, Context context, String bootstrapServers, String coordinatorId,
      String group) {
    var onRevocation = new OnRevocation();
    return KafkaClients.<String, Decoded>vertxConsumer(vertx, bootstrapServers,
            LogReader.groupConfig(bootstrapServers, coordinatorId, group), new StringDeserializer(),
            new EnvelopeDeserializer(), vertxListener -> new RevocationFence(vertxListener, context, onRevocation::letGo))
        .map(consumer -> new TransferGroup(vertx, consumer, onRevocation));
  }

  /**
   * Joins: {@code partitions} hears how many partitions the topic has before any record comes,
   * {@code records} gets every record read, {@code assigned} each partition taken over and its end
   * offset, asked for only once {@code ownWrites} of those partitions completes (so the end covers
   * what this member wrote to them before), {@code revoked} each partition lost. A partition is
   * revoked, and {@code ownWrites} of it awaited, before Kafka lets another member have it ({@link
   * RevocationFence}).
   */
  Future<?> join(IntConsumer partitions, Handler<KafkaConsumerRecord<String, Decoded>> records,
      Function<Set<Integer>, Future<?>> ownWrites, ObjLongConsumer<Integer> assigned, IntConsumer revoked) {
    consumer.handler(records);
    onRevocation.letGo = lost -> {
      lost.forEach(p -> {
        takingOver.remove(new TopicPartition(Topics.TRANSFERS, p));
        revoked.accept(p);
      });
      return onRevocation.closing ? Future.succeededFuture() : ownWrites.apply(lost);
    };
    consumer.partitionsAssignedHandler(taken -> {
      long assignment = ++assignments;
      taken.forEach(tp -> takingOver.put(tp, assignment));
      var numbers = taken.stream().map(TopicPartition::getPartition).collect(Collectors.toSet());
      ownWrites.apply(numbers).onComplete(written -> takeOver(taken, assignment, assigned));
    });
    return consumer.partitionsFor(Topics.TRANSFERS).compose(infos -> {
      partitions.accept(infos.size());
      return consumer.subscribe(Topics.TRANSFERS);
    });
  }

  /** What a revocation does on the event loop; set by {@link #join} before the member subscribes. */
  private static final class OnRevocation {
    private Function<Set<Integer>, Future<?>> letGo = lost -> Future.succeededFuture();
    private boolean closing;

    Future<?> letGo(Set<Integer> lost) {
      return letGo.apply(lost);
    }
  }

  /** Leaves: a static member's partitions move only when its session runs out, so its revocation does not wait. */
  Future<?> close() {
    onRevocation.closing = true;
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
