package io.kvfleet.control.cli;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.ops.ApiToken;
import io.kvfleet.control.ops.OpsOptions;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The coordinator's ops API, dashboard and {@code /metrics}: where, and behind which token. */
final class OpsCliOptions {
  @Option(names = "--api-port", defaultValue = "0",
      description = "Port of the coordinator's HTTP API, dashboard and /metrics; 0 picks a free one (default: ${DEFAULT-VALUE})")
  int port;

  @Option(names = "--api-host", defaultValue = "127.0.0.1", description = "Address the API listens on (default: ${DEFAULT-VALUE})")
  String host;

  @Option(names = "--api-token-file", description = "File holding the API's bearer token (else $" + ApiToken.ENV
      + ", else a new one, printed with the URL)")
  Path tokenFile;

  @Option(names = "--protect-metrics", description = "/metrics asks for the API token too (default: open, as Prometheus expects)")
  boolean protectMetrics;

  private OpsOptions resolved;

  /** The options, checked (and the token read) on the first call, so a mistake shows before anything starts. */
  OpsOptions options() {
    if (resolved == null) {
      if (port < 0 || port > 65535) {
        throw KvfleetException.badInput("--api-port must be 0 to 65535, not " + port);
      }
      resolved = new OpsOptions(host, port, ApiToken.resolve(tokenFile, System.getenv()), protectMetrics,
          OpsOptions.KEEP_RECORDS);
    }
    return resolved;
  }
}
