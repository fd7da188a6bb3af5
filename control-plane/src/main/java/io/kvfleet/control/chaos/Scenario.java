package io.kvfleet.control.chaos;

/**
 * The faults of the suite, each injected {@link ChaosConfig#rounds} times under load; the suite in
 * CI injects {@link #suiteRounds} of each (three broker and three coordinator restarts of each shape,
 * so that CI stays under its 20 minutes; {@code kvfleet chaos} injects five of each by default).
 */
public enum Scenario {
  /** SIGKILL the single broker and start it again on the same folder. */
  BROKER(1, 1, 3, "broker kill -9 (1 broker)"),
  /** SIGKILL one broker of three (the active controller first), then start it again. */
  BROKER_CLUSTER(3, 1, 3, "broker kill -9 (3 brokers, controller first)"),
  /** SIGKILL the lone coordinator and start it again. */
  COORDINATOR(1, 1, 3, "coordinator kill -9 (1 coordinator)"),
  /** SIGKILL one of a group of two coordinators and start it again later. */
  COORDINATOR_GROUP(1, 2, 3, "coordinator kill -9 (group of 2)"),
  /** SIGKILL the source agent mid-stream, then start it again (a new epoch). */
  AGENT_KILL(1, 1, 2, "agent kill -9 mid-stream"),
  /** SIGKILL the destination agent mid-stream, then start it again: the source's queue must keep moving. */
  DESTINATION_KILL(1, 1, 2, "destination agent kill -9 mid-stream"),
  /** SIGSTOP the source agent past its lease, then SIGCONT. */
  AGENT_PAUSE(1, 1, 2, "agent SIGSTOP past its lease, then SIGCONT"),
  /** Poison records of every kind into both topics, a coordinator restart between. */
  POISON(1, 1, 2, "poison records into both topics, coordinator restarted between");

  final int brokers;
  final int coordinators;
  /** How many faults of this kind the suite in CI injects. */
  public final int suiteRounds;
  final String description;

  Scenario(int brokers, int coordinators, int suiteRounds, String description) {
    this.brokers = brokers;
    this.coordinators = coordinators;
    this.suiteRounds = suiteRounds;
    this.description = description;
  }
}
