package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.replay.LogRecord;
import io.kvfleet.events.state.FleetState;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A coordinator stops even when a part of it never finishes closing: it goes on without that part. */
class CoordinatorStopIT {
  private final Fleet fleet = new Fleet();

  @AfterEach
  void close() throws Exception {
    fleet.close();
  }

  @Test
  void aStopThatOnePartNeverFinishesEndsAfterThatPartsBound() throws Exception {
    Promise<Void> never = Promise.promise(); // an ops server waiting on a client that never lets go, say
    String coordinator = fleet.startCoordinator(c -> c.withWatcher(new FoldWatcher() {
      @Override
      public void folded(LogRecord record, FleetState state, boolean redelivered) {}

      @Override
      public Future<?> stopped() {
        return never.future();
      }
    }));

    fleet.stop(coordinator); // waits at most a minute, and fails on it

    assertThat(never.future().isComplete()).as("the part that never finished").isFalse();
    assertThat(fleet.vertx.deploymentIDs()).doesNotContain(coordinator);
  }
}
