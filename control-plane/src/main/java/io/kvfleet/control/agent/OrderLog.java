package io.kvfleet.control.agent;

import io.kvfleet.control.kafka.KafkaClients;
import io.kvfleet.events.EventType;
import io.kvfleet.events.Topics;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EnvelopeDeserializer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.kafka.client.consumer.KafkaConsumer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Where an agent takes its orders: the transfers topic's partition that holds this node's key
 * (every request and dispatch naming it as source), read from its end when the agent starts, so
 * before it joins and before any dispatch can name its epoch. Only the log says what was
 * dispatched, and no other reader of the partition takes a record from it (an EventBus consumer
 * on the agent's address would take every other message). Runs on the agent's event loop.
 */
final class OrderLog {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(OrderLog.class);
  private final KafkaConsumer<String, Decoded> consumer;

  private OrderLog(KafkaConsumer<String, Decoded> consumer) {
    this.consumer = consumer;
  }

  /** Starts reading; {@code dispatched} gets every dispatch to {@code nodeId} that comes after. */
  static Future<OrderLog> start(Vertx vertx, String bootstrapServers, String nodeId,
      Consumer<TransferDispatched> dispatched) {
    return KafkaClients.<String, Decoded>vertxConsumer(vertx, bootstrapServers, Map.of(
            "client.id", "kvfleet-" + nodeId + "-orders", "enable.auto.commit", "false",
            "auto.offset.reset", "latest", "fetch.max.wait.ms", "100"), new StringDeserializer(), new DispatchesOnly())
        .compose(consumer -> {
          // Without a handler Vert.x drops poll errors silently: an agent that cannot read its orders
          // (an ACL, expired credentials) would heartbeat on and run nothing.
          consumer.exceptionHandler(error -> LOG.warn("{} cannot read its orders from {}: {}", nodeId,
              Topics.TRANSFERS, error.toString()));
          // The start is fixed before the handler: with it Vert.x starts polling (1 s a poll), and the
          // seek and the position would each wait behind a poll on the consumer's one thread.
          return OwnLossWatch.closedOnFailure(consumer,
              OwnLossWatch.fromTheEnd(consumer, bootstrapServers, Topics.TRANSFERS, nodeId)
                  .map(start -> new OrderLog(consumer.handler(record -> onRecord(record, nodeId, dispatched)))));
        });
  }

  private static void onRecord(io.vertx.kafka.client.consumer.KafkaConsumerRecord<String, Decoded> record,
      String nodeId, Consumer<TransferDispatched> dispatched) {
    if (record.value() instanceof Decoded.Event e && e.envelope().data() instanceof TransferDispatched d
        && d.sourceNode().equals(nodeId)) {
      dispatched.accept(d);
    } else if (unreadable(record.value()) instanceof String why) {
      LOG.warn("{} cannot read a record that names a dispatch ({}@{}): {}; its order does not run (a"
          + " newer coordinator? upgrade the agents first)", nodeId, record.partition(), record.offset(), why);
    }
  }

  /** Why a record that names the dispatch type is no dispatch this agent can read, or null when it is one (or none). */
  private static String unreadable(Decoded decoded) {
    return switch (decoded) {
      case null -> null;
      case Decoded.Malformed m -> m.reason();
      case Decoded.Event e -> e.envelope().data() instanceof io.kvfleet.events.OpaqueEvent o
          && o.wireType().equals(EventType.TRANSFER_DISPATCHED.wireName())
          ? "schema version " + o.schemaVersion() + " of " + o.wireType() : null;
    };
  }

  Future<Void> close() {
    return consumer.close();
  }

  /**
   * Decodes only the records whose bytes name the dispatch type (the partition also holds every
   * request and outcome of the node, which the agent does not need), so the agent does not parse
   * three documents per transfer; the rest come back null. The check can only let too many through
   * (the full decode and type check follow), never too few: kvfleet's codec writes the type unescaped.
   */
  static final class DispatchesOnly implements Deserializer<Decoded> {
    private static final byte[] TYPE = EventType.TRANSFER_DISPATCHED.wireName().getBytes(StandardCharsets.US_ASCII);
    private final EnvelopeDeserializer decoder = new EnvelopeDeserializer();

    @Override
    public Decoded deserialize(String topic, byte[] data) {
      return data != null && contains(data, TYPE) ? decoder.deserialize(topic, data) : null;
    }

    /**
     * With a type header the header decides what is skipped, without a scan of the bytes; a
     * dispatch is then decoded with the header checked against its document (a mismatch is
     * malformed). A record without the header (written before it) is scanned as above.
     */
    @Override
    public Decoded deserialize(String topic, org.apache.kafka.common.header.Headers headers, byte[] data) {
      var type = io.kvfleet.events.codec.TypeHeader.of(headers);
      if (type.isEmpty()) {
        return deserialize(topic, data);
      }
      return data != null && type.get().equals(EventType.TRANSFER_DISPATCHED.wireName())
          ? decoder.deserialize(topic, headers, data) : null;
    }

    static boolean contains(byte[] data, byte[] part) {
      outer:
      for (int i = 0; i + part.length <= data.length; i++) {
        for (int j = 0; j < part.length; j++) {
          if (data[i + j] != part[j]) {
            continue outer;
          }
        }
        return true;
      }
      return false;
    }
  }
}
