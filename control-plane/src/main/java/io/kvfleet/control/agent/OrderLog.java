package io.kvfleet.control.agent;

import io.kvfleet.control.kafka.KafkaClients;
import io.kvfleet.events.EventType;
import io.kvfleet.events.Topics;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.TransferTimedOut;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EnvelopeDeserializer;
import io.kvfleet.events.trust.Verdict;
import io.kvfleet.events.trust.Verifier;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.kafka.client.consumer.KafkaConsumer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Where an agent takes its orders: the transfers topic's partition that holds this node's key
 * (every request and dispatch naming it as source), read from its end when the agent starts, so
 * before it joins and before any dispatch can name its epoch. Only the log says what was
 * dispatched, and no other reader of the partition takes a record from it (an EventBus consumer
 * on the agent's address would take every other message). The same partition holds every ending
 * of those transfers, so it also tells the agent which ones the fleet ended ({@link FleetEndings}).
 * Runs on the agent's event loop.
 */
final class OrderLog {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(OrderLog.class);
  private static final io.kvfleet.control.LogSampling UNREADABLE_LOGGED = new io.kvfleet.control.LogSampling();
  private final KafkaConsumer<String, Decoded> consumer;

  private OrderLog(KafkaConsumer<String, Decoded> consumer) {
    this.consumer = consumer;
  }

  /**
   * Starts reading; {@code dispatched} gets every dispatch to {@code nodeId} that comes after, and
   * {@code endings} every ending of its transfers that {@code verifier} trusts ({@link Orders}).
   */
  static Future<OrderLog> start(Vertx vertx, String bootstrapServers, String nodeId, Verifier verifier,
      FleetEndings endings, Consumer<TransferDispatched> dispatched) {
    return KafkaClients.<String, Decoded>vertxConsumer(vertx, bootstrapServers, Map.of(
            "client.id", "kvfleet-" + nodeId + "-orders", "enable.auto.commit", "false",
            "auto.offset.reset", "latest", "fetch.max.wait.ms", "100"), new StringDeserializer(),
            new Orders(nodeId, verifier, endings))
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
    } else if (unreadable(record.value()) instanceof String why && UNREADABLE_LOGGED.next()) {
      LOG.warn("{} cannot read a record that names a dispatch ({}@{}): {}; its order does not run (a"
          + " newer coordinator? upgrade the agents first){}", nodeId, record.partition(), record.offset(), why,
          UNREADABLE_LOGGED.note());
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
   * Decodes the partition's dispatches for the agent to run, and reads the records that end or begin
   * this node's transfers into {@link FleetEndings} as it decodes them, in log order: a dispatch that
   * comes after its transfer's ending, even in one poll, finds the ending already read. Those come
   * back null, as does every other record (the partition holds every request and outcome of the
   * node), which is skipped undecoded: the type header names its type, and a record without it
   * (written before it) is scanned for the type's name, which can only let too many through, never
   * too few (kvfleet's codec writes the type unescaped). A request is decoded only while an ending
   * is held: it starts a new life of its id. An ending counts when another producer wrote it (not
   * this node's own outcome) and, in a signed fleet, its writer had the right to ({@link Verifier}).
   */
  static final class Orders implements Deserializer<Decoded> {
    private static final String DISPATCHED = EventType.TRANSFER_DISPATCHED.wireName();
    private static final String REQUESTED = EventType.TRANSFER_REQUESTED.wireName();
    private static final List<String> ENDINGS = List.of(EventType.TRANSFER_FAILED.wireName(),
        EventType.TRANSFER_TIMED_OUT.wireName(), EventType.TRANSFER_REJECTED.wireName());
    private static final List<String> SCANNED = Stream.of(List.of(DISPATCHED), ENDINGS, List.of(REQUESTED))
        .flatMap(List::stream).toList();
    private static final List<byte[]> SCANNED_BYTES = SCANNED.stream()
        .map(type -> type.getBytes(StandardCharsets.US_ASCII)).toList();
    private final EnvelopeDeserializer decoder = new EnvelopeDeserializer();
    private final String nodeId;
    private final Verifier verifier;
    private final FleetEndings endings;

    Orders(String nodeId, Verifier verifier, FleetEndings endings) {
      this.nodeId = nodeId;
      this.verifier = verifier;
      this.endings = endings;
    }

    @Override
    public Decoded deserialize(String topic, byte[] data) {
      return data == null ? null : read(scanned(data), () -> decoder.deserialize(topic, data));
    }

    /** With a type header the header decides what is read; a record is then decoded with the header checked. */
    @Override
    public Decoded deserialize(String topic, org.apache.kafka.common.header.Headers headers, byte[] data) {
      var type = io.kvfleet.events.codec.TypeHeader.of(headers);
      if (type.isEmpty()) {
        return deserialize(topic, data);
      }
      return data == null ? null : read(type.get(), () -> decoder.deserialize(topic, headers, data));
    }

    private Decoded read(String type, Supplier<Decoded> decode) {
      boolean wanted = type != null
          && (DISPATCHED.equals(type) || ENDINGS.contains(type) || (REQUESTED.equals(type) && endings.any()));
      if (!wanted) {
        return null;
      }
      var decoded = decode.get();
      try {
        if (decoded instanceof Decoded.Event e && noted(e)) {
          return null;
        }
      } catch (RuntimeException e) {
        // A bug must not stop the reader on this record: Kafka would hand it back on every poll.
        LOG.warn("{} passed over a record it could not note ({}): {}", nodeId, type, e.toString());
        return null;
      }
      return DISPATCHED.equals(type) ? decoded : null;
    }

    /** Whether {@code read} begins or ends a transfer (then it is noted, if it is this node's and counts). */
    private boolean noted(Decoded.Event read) {
      var envelope = read.envelope();
      var event = envelope.data();
      boolean request = event instanceof TransferRequested;
      if (!request && !(event instanceof TransferFailed || event instanceof TransferTimedOut
          || event instanceof TransferRejected)) {
        return false;
      }
      if (event.nodeId().equals(nodeId) && !envelope.producer().equals(nodeId)
          && verifier.check(read.raw(), envelope, id -> Optional.empty()) instanceof Verdict.Trusted) {
        if (request) {
          endings.requested(event.subject(), envelope.id(), envelope.time());
        } else {
          endings.read(event, envelope.producer(), envelope.time());
        }
      }
      return true;
    }

    /**
     * The type a record without a type header names in its bytes, of those this reader reads: a
     * dispatch first, then an ending, then a request (read only while an ending is held), so that a
     * name a record's text mentions never hides one it is. Decoding then acts on what it is.
     */
    private static String scanned(byte[] data) {
      for (int i = 0; i < SCANNED.size(); i++) {
        if (contains(data, SCANNED_BYTES.get(i))) {
          return SCANNED.get(i);
        }
      }
      return null;
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
