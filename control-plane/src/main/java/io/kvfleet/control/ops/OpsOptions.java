package io.kvfleet.control.ops;

import static java.util.Objects.requireNonNull;

/**
 * How the coordinator serves its ops API, dashboard and metrics.
 *
 * @param host the address to listen on (loopback unless the operator says otherwise)
 * @param port the port, 0 for a free one
 * @param token what the API and dashboard ask for
 * @param protectMetrics whether {@code /metrics} asks for the token too (Prometheus then sends it)
 * @param keepRecords how many of the newest records the events endpoint and explanations keep
 */
public record OpsOptions(String host, int port, ApiToken token, boolean protectMetrics, int keepRecords) {
  /** Records kept for the events endpoint and explanations by default. */
  public static final int KEEP_RECORDS = 50_000;

  public OpsOptions {
    requireNonNull(host, "host must not be null");
    requireNonNull(token, "token must not be null");
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be 0 to 65535: " + port);
    }
    if (keepRecords < 1) {
      throw new IllegalArgumentException("keepRecords must be positive: " + keepRecords);
    }
  }

  /** On loopback, {@code /metrics} open, the default records kept. */
  public static OpsOptions loopback(int port, ApiToken token) {
    return new OpsOptions("127.0.0.1", port, token, false, KEEP_RECORDS);
  }

  /** These options with {@code /metrics} behind the token or not. */
  public OpsOptions withProtectedMetrics(boolean protect) {
    return new OpsOptions(host, port, token, protect, keepRecords);
  }
}
