package io.kvfleet.control.agent;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.events.FleetEvent;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes an agent's events on its event loop. An outcome (of a registration or a transfer) must
 * reach the log: when the publisher's buffer refuses it as full (Kafka has been away a while) it is
 * offered again every {@link #OUTCOME_RETRY} until Kafka takes it, unless the agent crashed.
 */
final class OutcomePublisher {
  private static final Logger LOG = LoggerFactory.getLogger(OutcomePublisher.class);
  /** How often an outcome the full event buffer refused is offered again. */
  static final Duration OUTCOME_RETRY = Duration.ofSeconds(1);

  private final Vertx vertx;
  private final Context context;
  private final EventPublisher publisher;
  private final BooleanSupplier crashed;
  /** Told of each outcome once Kafka took it (the node's own metrics). */
  private final Consumer<FleetEvent> taken;
  /** Outcomes the full buffer refused that are still offered again (read by other threads). */
  private final AtomicInteger heldBack = new AtomicInteger();

  OutcomePublisher(Vertx vertx, Context context, EventPublisher publisher, BooleanSupplier crashed,
      Consumer<FleetEvent> taken) {
    this.vertx = vertx;
    this.context = context;
    this.publisher = publisher;
    this.crashed = crashed;
    this.taken = taken;
  }

  /** Publishes once: a heartbeat, a join or a goodbye, which the next one replaces. */
  Future<Void> publish(FleetEvent event, String correlationId) {
    if (crashed.getAsBoolean()) {
      return Future.failedFuture("the agent crashed (a drill) or this incarnation was retired: " + event.wireType()
          + " not published");
    }
    return Future.fromCompletionStage(publisher.publish(event, correlationId), context).mapEmpty();
  }

  /** Publishes an outcome, offered again while the full buffer refuses it; counted once Kafka took it. */
  Future<Void> publishOutcome(FleetEvent event, String correlationId) {
    return publishOutcome(event, correlationId, true).onSuccess(done -> taken.accept(event));
  }

  /** Publishes once an outcome counted already: what a new incarnation says again of an earlier one's. */
  Future<Void> publishAgain(FleetEvent event, String correlationId) {
    return publishOutcome(event, correlationId, true);
  }

  /** Publishes once, like {@link #publish}, an outcome counted once Kafka took it (a registration at start). */
  Future<Void> publishCounted(FleetEvent event, String correlationId) {
    return publish(event, correlationId).onSuccess(done -> taken.accept(event));
  }

  /** Why {@code event} could never be published (too large for a Kafka record); empty when it could. */
  java.util.Optional<KvfleetException> tooLarge(FleetEvent event, String correlationId) {
    return publisher.tooLarge(event, correlationId);
  }

  /** Events of this agent still waiting for Kafka. */
  int waiting() {
    return publisher.waiting();
  }

  /** How many events may wait for Kafka. */
  int capacity() {
    return publisher.capacity();
  }

  /** Outcomes the full buffer refused that are still offered again (until Kafka takes them or they fail). */
  int heldBack() {
    return heldBack.get();
  }

  private Future<Void> publishOutcome(FleetEvent event, String correlationId, boolean firstTry) {
    return publish(event, correlationId).recover(refused -> {
      if (crashed.getAsBoolean() || !KvfleetException.isBufferFull(refused)) {
        return Future.failedFuture(refused);
      }
      Promise<Void> later = Promise.promise();
      if (firstTry) {
        LOG.warn("{} {} waits, offered again every {}: {}", event.wireType(), event.subject(), OUTCOME_RETRY,
            refused.getMessage());
        heldBack.incrementAndGet();
        later.future().onComplete(done -> heldBack.decrementAndGet());
      }
      vertx.setTimer(OUTCOME_RETRY.toMillis(), t -> publishOutcome(event, correlationId, false).onComplete(later));
      return later.future();
    });
  }
}
