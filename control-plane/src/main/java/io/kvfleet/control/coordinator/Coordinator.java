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
import io.kvfleet.events.state.PeerView;
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
  /** A node that joined but never heartbeat is given this long before it counts as lost. */
  private static final long JOIN_GRACE_MILLIS = 10_000;
  private long malformed;
  private KafkaConsumer<String, Decoded> consumer;
  private final CatchUp catchUp = new CatchUp();

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
    vertx.eventBus().consumer(CoordinatorStatus.address(publisher.producerId()),
        message -> message.reply(Json.write(status())));
    vertx.setPeriodic(200, t -> enforceDeadlinesAndLeases());
    return LogReader.assignFromBeginning(consumer, Topics.ALL)
        .onSuccess(ends -> {
          catchUp.endsAre(ends);
          decideIfCaughtUp();
        });
  }

  @Override
  public Future<?> stop() {
    return consumer.close();
  }

  private CoordinatorStatus status() {
    var counts = state.counts();
    return new CoordinatorStatus(publisher.producerId(), catchUp.isDone(),
        state.appliedCount(), malformed, counts.opaque(), counts.violations(), state.hash());
  }

  private void onRecord(KafkaConsumerRecord<String, Decoded> record) {
    switch (record.value()) {
      case Decoded.Event e -> {
        state.apply(e.envelope());
        if (catchUp.isDone() && e.envelope().data() instanceof TransferRequested r) {
          decide(r);
        }
      }
      case Decoded.Malformed m -> {
        malformed++;
        LOG.warn("malformed record {}-{}@{}: {}", record.topic(), record.partition(), record.offset(), m.reason());
      }
    }
    catchUp.advance(record.topic(), record.partition(), record.offset());
    decideIfCaughtUp();
  }

  private void decideIfCaughtUp() {
    if (catchUp.markAnnounced()) {
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
    if (!catchUp.isDone()) {
      return;
    }
    long now = clock.millis();
    for (var peer : state.peers()) {
      String key = peer.nodeId() + "@" + peer.epoch();
      if (peer.status() == PeerStatus.ALIVE && leaseEnd(peer) < now && lostAnnounced.add(key)) {
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

  private static long leaseEnd(PeerView peer) {
    return peer.leaseMillis() > 0
        ? peer.leaseExpiresAt().toEpochMilli()
        : peer.joinedAt().toEpochMilli() + JOIN_GRACE_MILLIS;
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
