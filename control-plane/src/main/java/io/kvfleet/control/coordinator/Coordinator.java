package io.kvfleet.control.coordinator;

import io.kvfleet.control.Json;
import io.kvfleet.control.agent.NodeAgent;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.ReasonCodes;
import io.kvfleet.events.Topics;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.TransferTimedOut;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EnvelopeDeserializer;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.PeerStatus;
import io.kvfleet.events.state.TransferStatus;
import io.kvfleet.events.state.TransferView;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.kafka.client.consumer.KafkaConsumer;
import io.vertx.kafka.client.consumer.KafkaConsumerRecord;
import java.time.Clock;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator: folds every fleet event from Kafka into {@link FleetState}, validates transfer
 * requests and dispatches them over the EventBus to the source node's agent, and ends transfers
 * whose deadline passed or whose peer was lost. Its event loop owns the state; no locks.
 *
 * <p>At start it reads the log from the beginning and decides nothing until it has caught up with
 * the end offsets it found, so a restart never dispatches a transfer the log already answered.
 */
public final class Coordinator extends VerticleBase {
  private static final Logger LOG = LoggerFactory.getLogger(Coordinator.class);

  private final String bootstrapServers;
  private final EventPublisher publisher;
  private final Clock clock;
  private final FleetState state = new FleetState();
  private final TransferDecider decider;
  private final Set<String> decided = new HashSet<>();
  private final Set<String> lostAnnounced = new HashSet<>();
  private final Set<String> endedHere = new HashSet<>();
  private final AtomicLong malformed = new AtomicLong();
  private KafkaConsumer<String, Decoded> consumer;
  private CatchUp catchUp;

  public Coordinator(String bootstrapServers, EventPublisher publisher, Clock clock) {
    this.bootstrapServers = bootstrapServers;
    this.publisher = publisher;
    this.clock = clock;
    this.decider = new TransferDecider(publisher.producerId());
  }

  @Override
  public Future<?> start() {
    consumer = KafkaConsumer.create(vertx, LogReader.config(bootstrapServers, publisher.producerId()),
        new StringDeserializer(), new EnvelopeDeserializer());
    consumer.handler(this::onRecord);
    vertx.setPeriodic(200, t -> enforceDeadlinesAndLeases());
    return LogReader.assignFromBeginning(consumer, Topics.ALL)
        .onSuccess(ends -> catchUp = new CatchUp(ends))
        .onSuccess(ends -> decideIfCaughtUp());
  }

  @Override
  public Future<?> stop() {
    return consumer.close();
  }

  /** Malformed records seen so far (counted, logged, never fatal). */
  public long malformedCount() {
    return malformed.get();
  }

  private void onRecord(KafkaConsumerRecord<String, Decoded> record) {
    switch (record.value()) {
      case Decoded.Event e -> {
        state.apply(e.envelope());
        if (catchUp != null && catchUp.isDone() && e.envelope().data() instanceof TransferRequested r) {
          decide(r);
        }
      }
      case Decoded.Malformed m -> {
        malformed.incrementAndGet();
        LOG.warn("malformed record {}-{}@{}: {}", record.topic(), record.partition(), record.offset(), m.reason());
      }
    }
    if (catchUp != null) {
      catchUp.advance(record.topic(), record.partition(), record.offset());
      decideIfCaughtUp();
    }
  }

  private void decideIfCaughtUp() {
    if (catchUp.isDone() && catchUp.markAnnounced()) {
      LOG.info("caught up with the log after {} events; deciding", state.appliedCount());
      state.inFlightTransfers().stream()
          .filter(t -> t.status() == TransferStatus.REQUESTED)
          .forEach(t -> decide(t.request()));
    }
  }

  private void decide(TransferRequested request) {
    if (!decided.add(request.transferId())) {
      return;
    }
    switch (decider.decide(state, request, clock.instant())) {
      case Decision.Reject r -> publish(r.event());
      case Decision.AlreadyAnswered a -> LOG.info("duplicate request {} already answered", a.transferId());
      case Decision.Dispatch d -> publish(d.event()).onSuccess(v -> vertx.eventBus()
          .request(NodeAgent.address(request.sourceNode()), Json.write(d.order()),
              new DeliveryOptions().setSendTimeout(request.deadlineMillis() - clock.millis() + 1_000))
          .onFailure(err -> LOG.warn("agent {} did not answer for {}: {}",
              request.sourceNode(), request.transferId(), err.getMessage())));
    }
  }

  private void enforceDeadlinesAndLeases() {
    if (catchUp == null || !catchUp.isDone()) {
      return;
    }
    long now = clock.millis();
    for (var peer : state.peers()) {
      String key = peer.nodeId() + "@" + peer.epoch();
      if (peer.status() == PeerStatus.ALIVE && peer.leaseMillis() > 0
          && peer.leaseExpiresAt().toEpochMilli() < now && lostAnnounced.add(key)) {
        publish(new PeerLost(peer.nodeId(), peer.epoch(), ReasonCodes.LEASE_EXPIRED, peer.lastHeartbeat().toEpochMilli()));
        for (TransferView t : state.inFlightTouching(peer.nodeId())) {
          endOnce(t, new TransferFailed(t.transferId(), t.request().sourceNode(), ReasonCodes.PEER_LOST, 0,
              peer.nodeId() + " epoch " + peer.epoch() + " missed its lease"));
        }
      }
    }
    for (TransferView t : state.inFlightTransfers()) {
      if (t.request().deadlineMillis() < now) {
        endOnce(t, new TransferTimedOut(t.transferId(), t.request().sourceNode(), t.request().deadlineMillis()));
      }
    }
  }

  private void endOnce(TransferView transfer, FleetEvent terminal) {
    if (endedHere.add(transfer.transferId())) {
      publish(terminal);
    }
  }

  private Future<Void> publish(FleetEvent event) {
    return Future.fromCompletionStage(publisher.publish(event, event.subject()), context).mapEmpty();
  }
}
