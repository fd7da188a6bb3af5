package io.kvfleet.control.protocol;

import static java.util.Objects.requireNonNull;

/**
 * What an agent answers a transfer order with, once it is done with it: ran (and its terminal
 * event is in Kafka), a duplicate of an order it ran already, or ran but its outcome could not be
 * published. An order it cannot read is failed instead (code 400), not answered.
 *
 * @param outcome the wire type of the terminal event it published, empty unless {@code RAN}
 * @param detail why, in words, for {@code DUPLICATE} and {@code UNPUBLISHED}
 */
public record OrderReply(String transferId, Kind kind, String outcome, String detail) {
  /** How the order ended at the agent. */
  public enum Kind {
    /** It ran and its terminal event is in Kafka. */
    RAN,
    /** This request's order ran once already on this incarnation: not run again. */
    DUPLICATE,
    /** It ended, but Kafka did not take its terminal event (the coordinator's deadline ends it). */
    UNPUBLISHED
  }

  public OrderReply {
    requireNonNull(transferId, "transferId must not be null");
    requireNonNull(kind, "kind must not be null");
    requireNonNull(outcome, "outcome must not be null");
    requireNonNull(detail, "detail must not be null");
  }

  /** Ran, and its terminal event of type {@code outcome} is in Kafka. */
  public static OrderReply ran(String transferId, String outcome) {
    return new OrderReply(transferId, Kind.RAN, outcome, "");
  }

  /** Not run: a duplicate of an order this agent ran already. */
  public static OrderReply duplicate(String transferId) {
    return new OrderReply(transferId, Kind.DUPLICATE, "", "duplicate order for " + transferId
        + ": it ran once already");
  }

  /** Ended, but its terminal event did not reach Kafka, for {@code why}. */
  public static OrderReply unpublished(String transferId, String why) {
    return new OrderReply(transferId, Kind.UNPUBLISHED, "", why);
  }
}
