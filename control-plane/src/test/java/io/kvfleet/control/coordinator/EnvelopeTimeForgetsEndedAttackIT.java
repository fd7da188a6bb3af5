package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.dataplane.InProcessDataPlane;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.TransferStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Red team (att2), end to end on the embedded broker: {@link EnvelopeTimeForgetsEndedAttackTest}'s hole with a real
 * coordinator (its default keep-ended window of 10 minutes) and real agents. After t-0 completed, one record whose
 * envelope says it was written a year from now (a writer with a skewed clock, or one that sets the time on purpose;
 * in a signed fleet a node key signing its own heartbeat does the same) makes the coordinator forget t-0. The
 * router's retry of t-0 a moment later is dispatched and run again: two dispatches, two completions, the page
 * written twice, for one transfer id.
 */
class EnvelopeTimeForgetsEndedAttackIT {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private final Fleet fleet = new Fleet();

  @AfterEach
  void close() throws Exception {
    fleet.close();
  }

  @Test
  void aRecordTimedAYearAheadDoesNotLetARetryOfACompletedTransferRunAgain() throws Exception {
    fleet.startCoordinator();
    // Heartbeats every 2 s: on a loaded machine a shorter lease lapses and the agent rejoins at a new epoch.
    fleet.startAgent("prefill-0", 1, new InProcessDataPlane(), Duration.ofSeconds(2));
    fleet.startAgent("decode-0", 1, new InProcessDataPlane(), Duration.ofSeconds(2));
    request("t-0");
    fleet.awaitState("t-0 to end", WAIT, s -> ended(s, "t-0"));
    assertThat(fleet.state().transfer("t-0").orElseThrow().status()).as("t-0, before the attack")
        .isEqualTo(TransferStatus.COMPLETED);

    var aYearAhead = Clock.fixed(Instant.now().plus(Duration.ofDays(365)), ZoneOffset.UTC);
    try (var skewed = new EventPublisher(fleet.kafka.bootstrapServers(), "skewed-writer", 1, aYearAhead)) {
      skewed.publish(new PeerHeartbeat("prefill-0", 1, 60_000), "").get(30, TimeUnit.SECONDS);
    }
    request("t-0"); // the router's retry: it had no answer yet
    // t-1 is decided after the retry (the same partition, in order): once it completed, the retry was decided too.
    request("t-1");
    fleet.awaitState("t-1 to end", WAIT, s -> ended(s, "t-1"));

    assertThat(fleet.events("t-0", e -> e instanceof TransferDispatched)).as("dispatches of t-0").hasSize(1);
    assertThat(fleet.events("t-0", e -> e instanceof TransferCompleted)).as("completions of t-0").hasSize(1);
  }

  /** The router's request, at the agents' current epochs. */
  private void request(String id) throws Exception {
    fleet.request(id, fleet.agent("prefill-0").epoch(), fleet.agent("decode-0").epoch(), Duration.ofSeconds(30));
  }

  private static boolean ended(FleetState state, String id) {
    return state.transfer(id).map(t -> t.status().isTerminal()).orElse(false);
  }
}
