package io.kvfleet.control.coordinator;

import io.kvfleet.control.protocol.OrderReply;
import io.kvfleet.control.protocol.TransferOrder;
import java.util.EnumMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the agents answered the orders this coordinator sent: counted by kind, and said where it
 * matters (an order run twice is refused, an outcome Kafka did not take will be ended by the
 * deadline, an answer about another transfer is a misrouted reply). Owned by the event loop.
 */
final class OrderReplies {
  private static final Logger LOG = LoggerFactory.getLogger(OrderReplies.class);

  /** How an order ended, as the coordinator reads it. */
  enum Reading {
    RAN,
    DUPLICATE,
    UNPUBLISHED,
    /** The answer named another transfer than the order's. */
    MISROUTED,
    /** No answer came (the agent is gone, or the order could not be sent). */
    UNANSWERED
  }

  private final Map<Reading, Long> counts = new EnumMap<>(Reading.class);

  /** Reads the agent's answer to {@code order}. */
  Reading read(TransferOrder order, OrderReply reply) {
    String transferId = order.request().transferId();
    if (!reply.transferId().equals(transferId)) {
      LOG.warn("the answer to the order for {} names {}: {}", transferId, reply.transferId(), reply);
      return count(Reading.MISROUTED);
    }
    return switch (reply.kind()) {
      case RAN -> count(Reading.RAN);
      case DUPLICATE -> {
        LOG.info("{} did not run the order for {} again: {}", order.request().sourceNode(), transferId, reply.detail());
        yield count(Reading.DUPLICATE);
      }
      case UNPUBLISHED -> {
        LOG.warn("{} ran {} but Kafka did not take its outcome ({}); its deadline ends it", order.request()
            .sourceNode(), transferId, reply.detail());
        yield count(Reading.UNPUBLISHED);
      }
    };
  }

  /** No answer to {@code order} came, for {@code why}. */
  Reading unanswered(TransferOrder order, Throwable why) {
    LOG.warn("agent {} did not answer for {}: {}", order.request().sourceNode(), order.request().transferId(),
        why.getMessage());
    return count(Reading.UNANSWERED);
  }

  /** How many answers of each reading came so far. */
  Map<Reading, Long> counts() {
    return Map.copyOf(counts);
  }

  private Reading count(Reading reading) {
    counts.merge(reading, 1L, Long::sum);
    return reading;
  }
}
