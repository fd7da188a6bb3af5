package io.kvfleet.control.chaos;

import io.kvfleet.control.replay.LogSource;
import io.kvfleet.control.replay.ReplayRunner;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.replay.AnomalyKind;
import io.kvfleet.events.replay.Replay;
import io.kvfleet.events.replay.ReplayOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One scenario of the fault suite from start to verdict: a fleet of processes, the router's load,
 * the faults, a drain long enough for every request's deadline and lease to pass, then the figures
 * read back from the log.
 */
public final class FaultRun {
  private final Scenario scenario;
  private final ChaosConfig config;
  private final List<Duration> restarts = new ArrayList<>();
  private final List<Instant> faults = new ArrayList<>();
  /** When each restarted destination was registered again: requests after it must not wait behind the dead one. */
  private final List<Instant> recoveredAt = new ArrayList<>();
  private Poison.Written poison = Poison.Written.NONE;

  private FaultRun(Scenario scenario, ChaosConfig config) {
    this.scenario = scenario;
    this.config = config;
  }

  /** Runs {@code scenario} and answers what the log shows. */
  public static Figures run(Scenario scenario, ChaosConfig config) {
    return new FaultRun(scenario, config).run();
  }

  private Figures run() {
    try (var fleet = ChaosFleet.start(config, scenario.brokers, scenario.coordinators)) {
      Set<String> acknowledged;
      long refused;
      try (var load = new Load(fleet.bootstrap(), config, scenario.name().toLowerCase(java.util.Locale.ROOT),
          fleet::epoch)) {
        settle();
        for (int round = 0; round < config.rounds(); round++) {
          inject(fleet, round);
          settle();
        }
        load.close();
        acknowledged = load.acknowledged();
        refused = load.refused();
      }
      // Every request's deadline, and a lease and the coordinator's grace beyond it, must pass.
      Child.sleep(config.deadline().plus(config.lease().multipliedBy(2)).plusSeconds(5));
      return verdict(fleet, acknowledged, refused);
    }
  }

  /** Load between faults: two leases and a second, enough for a verdict on the fault before the next. */
  private void settle() {
    Child.sleep(config.lease().multipliedBy(2).plusSeconds(1));
  }

  private void inject(ChaosFleet fleet, int round) {
    faults.add(Instant.now());
    switch (scenario) {
      case BROKER -> restarts.add(fleet.restartBroker(0, Duration.ofSeconds(1)));
      case BROKER_CLUSTER -> restarts.add(fleet.restartBroker(round == 0 ? fleet.controller() : round % 3,
          Duration.ofSeconds(1)));
      case COORDINATOR -> restarts.add(fleet.restartCoordinator(0, Duration.ofMillis(200)));
      case COORDINATOR_GROUP -> restarts.add(fleet.restartCoordinator(round % 2, config.lease().multipliedBy(3)));
      case AGENT_KILL -> {
        fleet.agent(ChaosFleet.SOURCE).kill();
        Child.sleep(config.lease().multipliedBy(2));
        long started = System.nanoTime();
        fleet.startAgent(ChaosFleet.SOURCE);
        restarts.add(Duration.ofNanos(System.nanoTime() - started));
        recoveredAt.add(Instant.now());
      }
      case DESTINATION_KILL -> {
        fleet.agent(ChaosFleet.DESTINATION).kill();
        Child.sleep(config.lease().multipliedBy(2));
        long started = System.nanoTime();
        fleet.startAgent(ChaosFleet.DESTINATION);
        restarts.add(Duration.ofNanos(System.nanoTime() - started));
        recoveredAt.add(Instant.now());
      }
      case AGENT_PAUSE -> {
        long before = fleet.epoch(ChaosFleet.SOURCE);
        fleet.agent(ChaosFleet.SOURCE).pause();
        Child.sleep(config.lease().multipliedBy(3));
        fleet.agent(ChaosFleet.SOURCE).resume();
        fleet.awaitNewEpoch(ChaosFleet.SOURCE, before, Duration.ofSeconds(60)).ifPresent(restarts::add);
      }
      case POISON -> {
        poison = poison.plus(Poison.write(fleet.bootstrap(), ChaosFleet.SOURCE, round));
        restarts.add(fleet.restartCoordinator(0, Duration.ofSeconds(1)));
      }
    }
  }

  private Figures verdict(ChaosFleet fleet, Set<String> acknowledged, long refused) {
    var tally = new Tally();
    var replay = new Replay(ReplayOptions.defaults());
    ReplayRunner.read(LogSource.Kafka.of(fleet.bootstrap()), record -> {
      if (record.value() instanceof Decoded.Event e) {
        tally.add(e.envelope());
      }
      return replay.accept(record) || true;
    }, false);
    var anomalies = replay.finish().anomalies();
    long deadLettered = poison.count() == 0 ? 0 : Poison.deadLettered(fleet.bootstrap(), poison);
    return new Figures(scenario.description + " x" + config.rounds(), tally.requests(), acknowledged.size(), refused,
        tally.endedOnce(), tally.unended() + poison.unended(tally), tally.endedTwiceOrMore() + poison.endedTwice(tally),
        tally.lateOutcomes(), tally.lost(acknowledged), anomalies.count(AnomalyKind.DUPLICATE),
        anomalies.count(AnomalyKind.SEQUENCE_GAP), anomalies.count(AnomalyKind.VIOLATION), tally.bytesMaybeLate(),
        tally.bytesReportedLate(), stalled(tally), detections(tally), poison.count(), deadLettered, List.copyOf(restarts),
        java.util.stream.Stream.concat(poison.unendedIds(tally).stream(), tally.examples(5).stream()).toList(),
        tally.verdictsAfterReport(), tally.completed(), faults.size(), detectsAgentFaults(),
        tally.endedHow());
  }

  /** Requests made in the lease after a restarted peer had been back a second that still timed out. */
  private long stalled(Tally tally) {
    return recoveredAt.stream().mapToLong(t -> tally.timedOutBetween(t.plusSeconds(1),
        t.plusSeconds(1).plus(config.lease()))).sum();
  }

  private boolean detectsAgentFaults() {
    return scenario == Scenario.AGENT_KILL || scenario == Scenario.AGENT_PAUSE || scenario == Scenario.DESTINATION_KILL;
  }

  /** For agent faults, from each fault to the first peer.lost after it. */
  private List<Duration> detections(Tally tally) {
    if (!detectsAgentFaults()) {
      return List.of();
    }
    var losses = tally.peerLosses();
    return faults.stream().flatMap(f -> losses.stream().filter(l -> l.isAfter(f)).findFirst()
        .map(l -> Duration.between(f, l)).stream()).toList();
  }
}
