package io.kvfleet.control.agent;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.dataplane.DataPlane;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.RegistrationDecision;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * An agent's registrations: the configured components at start, and a local worker's
 * (de)registrations later; one outcome per region and backend, the policy's decisions, all
 * published. Native work runs on worker threads.
 */
final class Registrations {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Registrations.class);
  /** How long a worker's registration waits for Kafka before it is answered as pending. */
  static final Duration DURABLE_WAIT = Duration.ofSeconds(5);

  private final Vertx vertx;
  private final AgentConfig config;
  private final DataPlane dataPlane;
  private final OutcomePublisher outcomes;
  /** Publishes the node's goodbye with a reason (a start that fails under {@code FAIL_NODE}). */
  private final Function<String, Future<Void>> leave;
  /** What this node's registrations have said so far, for a new incarnation to say again. */
  private final Reannounce said;

  Registrations(Vertx vertx, AgentConfig config, DataPlane dataPlane, OutcomePublisher outcomes,
      Function<String, Future<Void>> leave, Reannounce said) {
    this.said = said;
    this.vertx = vertx;
    this.config = config;
    this.dataPlane = dataPlane;
    this.outcomes = outcomes;
    this.leave = leave;
  }

  /**
   * Registers buffers for a local worker: one outcome per region and backend, the policy's
   * decisions, all published; answers once Kafka has them, or after {@code DURABLE_WAIT} with the
   * events marked pending. Refused up front, with nothing registered, when the event buffer is full.
   */
  Future<RegistrationAnswer> register(List<Component> components) {
    int expected = components.stream().mapToInt(c -> c.regions().size()).sum() * 4;
    if (expected > outcomes.capacity()) {
      return Future.failedFuture(moreThanTheBufferHolds(expected));
    }
    if (outcomes.waiting() + expected > outcomes.capacity()) {
      return Future.failedFuture(KvfleetException.bufferFull(config.nodeId(), outcomes.capacity()));
    }
    String batch = config.nodeId() + "@" + config.epoch() + "/" + System.nanoTime();
    return vertx.executeBlocking(() -> registerAll(components), true)
        .onSuccess(said::heard)
        .compose(outcomes -> answer(outcomes, batch));
  }

  /**
   * Registers a served model's buffers like {@link #register}, then declares its layout: the
   * layout event follows the registration outcomes on the node's key, so Kafka keeps them in order.
   */
  Future<RegistrationAnswer> declare(ServedModel model) {
    var components = model.buffers();
    int expected = components.stream().mapToInt(c -> c.regions().size()).sum() * 4 + 1;
    if (expected > outcomes.capacity()) {
      return Future.failedFuture(moreThanTheBufferHolds(expected));
    }
    if (outcomes.waiting() + expected > outcomes.capacity()) {
      return Future.failedFuture(KvfleetException.bufferFull(config.nodeId(), outcomes.capacity()));
    }
    String batch = config.nodeId() + "@" + config.epoch() + "/layout/" + System.nanoTime();
    FleetEvent layout = model.declaration(config.nodeId(), config.epoch());
    var tooLarge = outcomes.tooLarge(layout, batch);
    if (tooLarge.isPresent()) { // refused before anything is registered: a layout no record holds is never said
      return Future.failedFuture(tooLarge.get());
    }
    return vertx.executeBlocking(() -> registerAll(components), true)
        .map(registered -> java.util.stream.Stream.concat(registered.stream(), java.util.stream.Stream.of(layout)).toList())
        .onSuccess(said::heard)
        .compose(all -> answer(all, batch));
  }

  /**
   * Refuses a call whose outcomes the event buffer could not hold even empty: it is no passing state of Kafka's
   * (a 503 the worker would retry for ever) but the call's size.
   */
  private KvfleetException moreThanTheBufferHolds(int expected) {
    return KvfleetException.badInput("this call may make " + expected + " outcome events (up to four per entry), more"
        + " than the agent's event buffer holds (" + outcomes.capacity() + "): register the entries in smaller calls");
  }

  /** Releases a region for a local worker; fails when the node holds no such region. */
  Future<RegistrationAnswer> deregister(String regionId) {
    return vertx.executeBlocking(() -> dataPlane.deregister(config.nodeId(), config.epoch(), regionId), true)
        .onSuccess(said::heard)
        .compose(events -> events.isEmpty()
            ? Future.failedFuture(KvfleetException.noSuchRegion(regionId, config.nodeId()))
            : answer(events, regionId));
  }

  /** Publishes, at this incarnation's epoch, what an earlier incarnation's registrations said. */
  Future<Void> sayAgain() {
    String batch = config.nodeId() + "@" + config.epoch() + "/rejoin";
    var again = said.at(config.epoch());
    // An event no record can hold is not said again: it would fail every join after it, each at a new epoch.
    return Future.all(again.stream().map(e -> outcomes.publishAgain(e, batch).recover(err -> {
      if (!KvfleetException.isEventTooLarge(err)) {
        return Future.failedFuture(err);
      }
      LOG.error("{} at its new epoch {} does not say {} for {} again: {}", config.nodeId(), config.epoch(),
          e.wireType(), e.subject(), err.getMessage());
      return Future.succeededFuture();
    })).toList()).mapEmpty();
  }

  private Future<RegistrationAnswer> answer(List<FleetEvent> outcomes, String correlationId) {
    var published = Future.all(outcomes.stream().map(e -> this.outcomes.publishOutcome(e, correlationId)).toList());
    return published.timeout(DURABLE_WAIT.toMillis(), TimeUnit.MILLISECONDS)
        .map(done -> RegistrationAnswer.of(outcomes, true, this.outcomes.waiting()))
        .recover(slow -> KvfleetException.isEventTooLarge(slow) ? Future.failedFuture(slow) // never written: 413
            : Future.succeededFuture(RegistrationAnswer.of(outcomes, false, this.outcomes.waiting())));
  }

  /**
   * Registers every component's buffers and publishes one outcome per region and backend, then
   * the policy's decision for any component that did not register. Under {@code FAIL_NODE} a
   * failed component fails the start, after the diagnosis is on record.
   */
  Future<Void> registerRegions() {
    String batch = config.nodeId() + "@" + config.epoch() + "/start";
    return vertx.executeBlocking(() -> registerAll(config.components()), true)
        .onSuccess(said::heard)
        .compose(outcomes -> Future.all(outcomes.stream().map(e -> this.outcomes.publishCounted(e, batch)).toList())
            .map(outcomes))
        .compose(outcomes -> {
          boolean stop = config.policy().stopsNode()
              && outcomes.stream().anyMatch(e -> e instanceof RegistrationDecision);
          return stop ? leave.apply(ReasonCodes.REGISTRATION_FAILED).compose(v -> Future.failedFuture(
              config.nodeId() + " stops: a component failed to register under policy FAIL_NODE"))
              : Future.succeededFuture();
        });
  }

  private List<FleetEvent> registerAll(List<Component> components) {
    List<FleetEvent> all = new ArrayList<>();
    for (Component component : components) {
      List<FleetEvent> outcomes = new ArrayList<>();
      var regions = component.regions();
      for (int i = 0; i < regions.size(); i++) {
        outcomes.addAll(dataPlane.register(config.nodeId(), config.epoch(), regions.get(i), component.handle(i)));
      }
      all.addAll(outcomes);
      config.policy().decide(config.nodeId(), config.epoch(), component, outcomes).ifPresent(all::add);
      if (config.policy() == RegistrationPolicy.FALLBACK_STAGED && component.memoryType() == MemoryType.VRAM) {
        for (var region : RegistrationPolicy.unreachable(component, outcomes, dataPlane::reachesOtherHosts)) {
          all.addAll(dataPlane.stage(config.nodeId(), config.epoch(), region));
        }
      }
    }
    return all;
  }
}
