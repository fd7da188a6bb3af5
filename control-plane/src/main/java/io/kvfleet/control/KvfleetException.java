package io.kvfleet.control;

/** The control plane's one unchecked exception type, made by factories named after the situation. */
public final class KvfleetException extends RuntimeException {
  private KvfleetException(String message, Throwable cause) {
    super(message, cause);
  }

  /** The embedded broker could not start. */
  public static KvfleetException kafkaStartFailed(String what, Throwable cause) {
    return new KvfleetException(what + ": " + cause.getMessage(), cause);
  }

  /** Kafka did not answer in time. */
  public static KvfleetException kafkaUnreachable(String bootstrapServers, Throwable cause) {
    Throwable root = cause instanceof java.util.concurrent.ExecutionException && cause.getCause() != null
        ? cause.getCause() : cause;
    boolean silent = root instanceof java.util.concurrent.TimeoutException
        || root instanceof org.apache.kafka.common.errors.TimeoutException;
    String why = root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
    return new KvfleetException("Kafka at " + bootstrapServers + (silent ? " did not answer: " : " refused: ") + why,
        cause);
  }

  /** Too many events are waiting for Kafka: refuse new work rather than drop anything. */
  public static KvfleetException bufferFull(String producerId, int capacity) {
    return new KvfleetException(producerId + ": " + capacity + " events are already waiting for Kafka;"
        + " refusing new work until Kafka is reachable again (nothing was dropped)", null);
  }

  /** A benchmark could not set up, run or stop what it measures. */
  public static KvfleetException benchFailed(String what, Throwable cause) {
    return new KvfleetException(cause == null ? what : what + ": " + cause, cause);
  }

  /** A command was given something it cannot use. */
  public static KvfleetException badInput(String message) {
    return new KvfleetException(message, null);
  }
}
