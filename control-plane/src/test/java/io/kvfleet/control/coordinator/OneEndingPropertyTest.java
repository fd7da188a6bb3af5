package io.kvfleet.control.coordinator;

import static io.kvfleet.control.coordinator.TransferDeciderTest.joined;
import static io.kvfleet.control.coordinator.TransferDeciderTest.range;
import static io.kvfleet.control.coordinator.TransferDeciderTest.registered;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.TransferTimedOut;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.TransferStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Exactly one ending from the coordinator side per request, over random interleavings of what a
 * coordinator sees: requests whose deadline is past or ahead, reads of the log (its own
 * publications read back late), Kafka taking or refusing what it published, agent outcomes, time
 * passing, and restarts (a new incarnation folds the log so far; what the old one had not handed
 * to Kafka yet lands or is lost). Each trial is one seed of a {@link Random}, so a failure names it.
 */
class OneEndingPropertyTest {
  private static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");
  private static final long PAGE = 4096;
  private static final int TRIALS = 3_000;

  @Test
  void everyRequestEndsOnceFromTheCoordinatorSideWhateverTheInterleaving() {
    for (long seed = 1; seed <= TRIALS; seed++) {
      new Trial(seed).run();
    }
  }

  /** One interleaving: a log, a coordinator incarnation over it, and the outside world. */
  private static final class Trial {
    private final long seed;
    private final Random random;
    private final List<Envelope> log = new ArrayList<>();
    private final List<Envelope> inKafkasHands = new ArrayList<>();
    private final List<TransferRequested> toRequest = new ArrayList<>();
    private final Set<String> ordered = new HashSet<>();
    private final Set<String> reported = new HashSet<>();
    private long now = T0.toEpochMilli();
    private long sequence;
    private int incarnation;
    private FleetState state;
    private Deciding deciding;
    private int read;

    Trial(long seed) {
      this.seed = seed;
      this.random = new Random(seed);
      for (FleetEvent e : List.of(joined("prefill-0", 1, "ucx"), joined("decode-0", 1, "ucx"),
          new PeerHeartbeat("prefill-0", 1, Long.MAX_VALUE / 4), new PeerHeartbeat("decode-0", 1, Long.MAX_VALUE / 4),
          registered("prefill-0", 1, "kv", PAGE, "ucx"), registered("decode-0", 1, "kv", PAGE, "ucx"))) {
        log.add(envelope("node", e));
      }
      int requests = 1 + random.nextInt(6);
      for (int i = 0; i < requests; i++) {
        long deadline = now + random.nextInt(4_000) - 2_000; // about half already passed when read
        toRequest.add(new TransferRequested("t" + i, "prefill-0", 1, "kv", "decode-0", 1, "kv", TransferOp.WRITE,
            List.of(range(0, 0, PAGE)), deadline, false));
      }
      restart();
    }

    void run() {
      for (int step = 0; step < 60; step++) {
        switch (random.nextInt(8)) {
          case 0 -> requestOne();
          case 1, 2 -> readOne();
          case 3 -> landOne();
          case 4 -> tick(random.nextInt(1_500));
          case 5 -> agentReports();
          case 6 -> refuseOne();
          case 7 -> {
            if (random.nextInt(4) == 0) {
              crashAndRestart();
            }
          }
          default -> throw new IllegalStateException();
        }
      }
      while (!toRequest.isEmpty()) {
        requestOne();
      }
      for (int settle = 0; settle < 20; settle++) {
        while (!inKafkasHands.isEmpty()) {
          landOne();
        }
        while (read < log.size()) {
          readOne();
        }
        tick(1_000);
      }
      check();
    }

    private void check() {
      Map<String, List<String>> coordinatorEnds = new HashMap<>();
      Map<String, Boolean> agentEndedFirst = new HashMap<>();
      for (Envelope e : log) {
        String id = e.data().subject();
        boolean terminal = e.data() instanceof TransferRejected || e.data() instanceof TransferTimedOut
            || e.data() instanceof TransferFailed || e.data() instanceof TransferCompleted;
        if (!terminal) {
          continue;
        }
        if (e.producer().startsWith("coordinator")) {
          coordinatorEnds.computeIfAbsent(id, k -> new ArrayList<>()).add(e.data().getClass().getSimpleName()
              + " by " + e.producer());
        } else if (!coordinatorEnds.containsKey(id)) {
          agentEndedFirst.put(id, true);
        }
      }
      for (Envelope e : log) {
        if (e.data() instanceof TransferRequested r) {
          var ends = coordinatorEnds.getOrDefault(r.transferId(), List.of());
          if (agentEndedFirst.getOrDefault(r.transferId(), false)) {
            assertThat(ends).as("seed %d: %s, ended by its agent first", seed, r.transferId()).hasSizeLessThanOrEqualTo(1);
          } else {
            assertThat(ends).as("seed %d: the coordinator side's endings of %s", seed, r.transferId()).hasSize(1);
          }
        }
      }
    }

    private void requestOne() {
      if (!toRequest.isEmpty()) {
        log.add(envelope("router", toRequest.removeFirst()));
      }
    }

    private void readOne() {
      if (read >= log.size()) {
        return;
      }
      Envelope e = log.get(read++);
      state.apply(e);
      deciding.read(state, e.data(), 0, true, Ownership.whole(), Instant.ofEpochMilli(now)).forEach(this::act);
    }

    private void act(Decision decision) {
      switch (decision) {
        case Decision.Reject r -> publish(r.event());
        case Decision.Dispatch d -> publish(d.event());
        case Decision.Wait w -> throw new AssertionError("a wait is not acted on");
        case Decision.AlreadyAnswered a -> { }
      }
    }

    private void publish(FleetEvent event) {
      inKafkasHands.add(envelope("coordinator-" + incarnation, event));
    }

    /** Kafka takes the oldest publication; a dispatch's order then reaches the agent. */
    private void landOne() {
      if (inKafkasHands.isEmpty()) {
        return;
      }
      Envelope e = inKafkasHands.removeFirst();
      log.add(e);
      if (e.data() instanceof TransferDispatched d) {
        ordered.add(d.transferId());
      }
    }

    /** The publisher's buffer was full: the oldest publication is refused, certainly not in Kafka. */
    private void refuseOne() {
      if (!inKafkasHands.isEmpty()) {
        deciding.refused(inKafkasHands.removeLast().data());
      }
    }

    private void tick(long millis) {
      now += millis;
      var at = Instant.ofEpochMilli(now);
      deciding.due(state, node -> true, at).forEach(this::act);
      deciding.endingsDue(state, now, NodesView.watched(T0.toEpochMilli(), now), node -> true).forEach(this::publish);
    }

    /** An agent that got an order reports its outcome (its own producer, straight to Kafka). */
    private void agentReports() {
      for (String id : ordered) {
        if (reported.add(id)) {
          log.add(envelope("prefill-0", random.nextBoolean()
              ? new TransferCompleted(id, "prefill-0", PAGE, 100, "ucx", "")
              : new TransferFailed(id, "prefill-0", "TRANSPORT_ERROR", 0, "broken pipe")));
          return;
        }
      }
    }

    /** kill -9: each publication Kafka had not acknowledged lands or is lost; a new incarnation catches up. */
    private void crashAndRestart() {
      for (Envelope e : List.copyOf(inKafkasHands)) {
        inKafkasHands.remove(e);
        if (random.nextBoolean()) {
          log.add(e);
          if (e.data() instanceof TransferDispatched d) {
            ordered.add(d.transferId());
          }
        }
      }
      restart();
    }

    private void restart() {
      incarnation++;
      state = new FleetState();
      deciding = new Deciding("coordinator-" + incarnation);
      var at = Instant.ofEpochMilli(now);
      for (read = 0; read < log.size(); read++) {
        state.apply(log.get(read));
        deciding.read(state, log.get(read).data(), 0, false, Ownership.whole(), at);
      }
      for (var t : state.inFlightTransfers()) {
        if (t.status() == TransferStatus.REQUESTED) {
          deciding.decide(state, t.request(), at).ifPresent(this::act);
        }
      }
    }

    private Envelope envelope(String producer, FleetEvent event) {
      sequence++;
      return new Envelope("e" + sequence, producer, 1, sequence, Instant.ofEpochMilli(now), "", event);
    }
  }
}
