package io.kvfleet.control;

/**
 * The control plane's one unchecked exception type, made by factories named after the situation.
 * Callers that branch on what went wrong branch on its {@link Kind}, never on its message.
 */
public final class KvfleetException extends RuntimeException {
  /** What went wrong, for callers that act on it (an HTTP status, a retry). */
  public enum Kind {
    /** The embedded broker could not start. */
    KAFKA_START_FAILED,
    /** Kafka did not answer, or refused. */
    KAFKA_UNREACHABLE,
    /** Kafka refused this client's credentials (SASL, TLS) or its ACLs deny what it asked. */
    KAFKA_REFUSED,
    /** The event buffer is full: nothing was taken, nothing dropped; try again once Kafka is back. */
    BUFFER_FULL,
    /** A benchmark could not set up, run or stop. */
    BENCH_FAILED,
    /** The input cannot be used as given. */
    BAD_INPUT,
    /** The input names something that does not exist (a region this node does not hold). */
    NOT_FOUND,
    /** Not now, but soon: the node agent is joining again with a new epoch; try again shortly. */
    REJOINING,
    /** Never again: another agent joined under this node id, and this one serves no more. */
    SUPERSEDED,
    /** Not now: what the call touches is still in use (a region moving bytes); the same call may succeed later. */
    BUSY,
    /** Never: the event is larger than a Kafka record may be; it was not written and took no sequence number. */
    EVENT_TOO_LARGE
  }

  private final Kind kind;

  private KvfleetException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  /** What went wrong. */
  public Kind kind() {
    return kind;
  }

  /** Whether {@code error}, or the error it wraps, is a refusal by the full event buffer. */
  public static boolean isBufferFull(Throwable error) {
    return is(error, Kind.BUFFER_FULL);
  }

  /** Whether {@code error}, or the error it wraps, is an event too large for a Kafka record. */
  public static boolean isEventTooLarge(Throwable error) {
    return is(error, Kind.EVENT_TOO_LARGE);
  }

  /** Whether {@code error}, or the error it wraps, is of {@code kind}. */
  private static boolean is(Throwable error, Kind kind) {
    return error instanceof KvfleetException k && k.kind == kind
        || error != null && error.getCause() instanceof KvfleetException c && c.kind == kind;
  }

  /** The embedded broker could not start. */
  public static KvfleetException kafkaStartFailed(String what, Throwable cause) {
    return new KvfleetException(Kind.KAFKA_START_FAILED, what + ": " + cause.getMessage(), cause);
  }

  /** Kafka did not answer in time. */
  public static KvfleetException kafkaUnreachable(String bootstrapServers, Throwable cause) {
    Throwable root = cause instanceof java.util.concurrent.ExecutionException && cause.getCause() != null
        ? cause.getCause() : cause;
    boolean silent = root instanceof java.util.concurrent.TimeoutException
        || root instanceof org.apache.kafka.common.errors.TimeoutException;
    String why = root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
    if (root instanceof org.apache.kafka.common.errors.AuthenticationException) {
      return new KvfleetException(Kind.KAFKA_REFUSED, "Kafka at " + bootstrapServers + " refused this client's"
          + " credentials: " + why + " (check security.protocol, sasl.* and ssl.* in --kafka-config)", cause);
    }
    if (root instanceof org.apache.kafka.common.errors.AuthorizationException) {
      return new KvfleetException(Kind.KAFKA_REFUSED, "Kafka at " + bootstrapServers + " denied it by its ACLs: "
          + why + " (this client's user lacks the ACL its role needs: see docs/SECURITY.md)", cause);
    }
    return new KvfleetException(Kind.KAFKA_UNREACHABLE,
        "Kafka at " + bootstrapServers + (silent ? " did not answer: " : " refused: ") + why
            + (silent ? " (is it up? a TLS listener does not answer a PLAINTEXT client: give --kafka-config)" : ""),
        cause);
  }

  /** Too many events are waiting for Kafka: refuse new work rather than drop anything. */
  public static KvfleetException bufferFull(String producerId, int capacity) {
    return new KvfleetException(Kind.BUFFER_FULL, producerId + ": " + capacity
        + " events are already waiting for Kafka; refusing new work until Kafka is reachable again"
        + " (nothing was dropped)", null);
  }

  /**
   * {@code what} encodes to a Kafka record of {@code bytes} bytes, over the {@code limit} its producer may send:
   * refused before it took a sequence number, so the log shows no gap for it.
   */
  public static KvfleetException eventTooLarge(String producerId, String what, long bytes, long limit) {
    return new KvfleetException(Kind.EVENT_TOO_LARGE, producerId + ": " + what + " is a record of " + bytes
        + " bytes, over the " + limit + " a Kafka record may hold here (max.request.size); it was not written", null);
  }

  /** A benchmark could not set up, run or stop what it measures. */
  public static KvfleetException benchFailed(String what, Throwable cause) {
    return new KvfleetException(Kind.BENCH_FAILED, cause == null ? what : what + ": " + cause, cause);
  }

  /** A command was given something it cannot use. */
  public static KvfleetException badInput(String message) {
    return new KvfleetException(Kind.BAD_INPUT, message, null);
  }

  /** The log holds {@code nodeId}'s join at the largest epoch there is (offset {@code offset}, by {@code producer}). */
  public static KvfleetException epochsExhausted(String nodeId, long offset, String producer) {
    return new KvfleetException(Kind.BAD_INPUT, "the log holds a join of node " + nodeId + " at epoch "
        + Long.MAX_VALUE + " (offset " + offset + " of kvfleet.nodes, written as '" + producer + "'), the largest an"
        + " epoch can be: no join can take " + nodeId + " back. No kvfleet agent writes it (an agent's epoch is its"
        + " clock's milliseconds); whoever can write to Kafka can, unless the fleet is signed (docs/SECURITY.md)."
        + " Start this node under another --id", null);
  }

  /** A node agent that was fenced is joining again: registrations wait until its new epoch has joined. */
  public static KvfleetException rejoining(String nodeId) {
    return new KvfleetException(Kind.REJOINING, nodeId + " is joining again with a new epoch (its lease"
        + " lapsed or the fleet declared it lost); nothing was registered: try again in a second", null);
  }

  /** Another agent joined as {@code nodeId} at {@code otherEpoch} from {@code otherHost}, while this one served {@code epoch}. */
  public static KvfleetException superseded(String nodeId, long epoch, long otherEpoch, String otherHost) {
    return new KvfleetException(Kind.SUPERSEDED, "another agent joined as " + nodeId + " (epoch " + otherEpoch
        + ", host " + otherHost + "), so this one (epoch " + epoch + ") serves no more: two agents must not share a"
        + " node id; register with the agent now serving " + nodeId + ", or stop one of them", null);
  }

  /** {@code what} is in use now (a region with transfers in flight); nothing was changed. */
  public static KvfleetException busy(String what) {
    return new KvfleetException(Kind.BUSY, what + "; nothing was released: try again once they end", null);
  }

  /** The node agent's API answers before its first join has completed. */
  public static KvfleetException notJoinedYet(String nodeId) {
    return new KvfleetException(Kind.REJOINING, nodeId + " has not joined the fleet yet; nothing was registered: try"
        + " again in a second", null);
  }

  /** The node agent is stopping (or its start failed): it takes no new registration. */
  public static KvfleetException stopping(String nodeId) {
    return new KvfleetException(Kind.REJOINING, nodeId + "'s agent is stopping; nothing was registered: register with"
        + " the agent that serves " + nodeId + " next", null);
  }

  /** A reader found no topic {@code topic} at {@code bootstrapServers} (Kafka answers an empty list for it). */
  public static KvfleetException noSuchTopic(String topic, String bootstrapServers) {
    return new KvfleetException(Kind.NOT_FOUND, "Kafka at " + bootstrapServers + " has no topic " + topic
        + ": the fleet topics are made by 'kvfleet kafka', a coordinator or a node command at start", null);
  }

  /** A worker named a region its node does not hold. */
  public static KvfleetException noSuchRegion(String regionId, String nodeId) {
    return new KvfleetException(Kind.NOT_FOUND, "no region " + regionId + " on " + nodeId, null);
  }
}
