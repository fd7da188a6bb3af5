package io.kvfleet.control.chaos;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How a fault run is set up.
 *
 * @param classpath the class path the fleet's processes run with
 * @param workDir where brokers keep their data and processes their logs
 * @param rate transfer requests per second from the router
 * @param deadline how long after its request a transfer times out
 * @param heartbeat the agents' heartbeat period; their lease is three
 * @param rounds how many times each fault is injected
 * @param clusterName the EventBus cluster name, unique to this run
 */
public record ChaosConfig(String classpath, Path workDir, int rate, Duration deadline, Duration heartbeat,
    int rounds, String clusterName) {
  public ChaosConfig {
    requireNonNull(classpath, "classpath must not be null");
    requireNonNull(workDir, "workDir must not be null");
    requireNonNull(deadline, "deadline must not be null");
    requireNonNull(heartbeat, "heartbeat must not be null");
    requireNonNull(clusterName, "clusterName must not be null");
    if (rate < 1 || rounds < 1) {
      throw new IllegalArgumentException("rate and rounds must be at least 1: " + rate + ", " + rounds);
    }
  }

  /** The agents' lease: three heartbeats. */
  public Duration lease() {
    return heartbeat.multipliedBy(3);
  }
}
