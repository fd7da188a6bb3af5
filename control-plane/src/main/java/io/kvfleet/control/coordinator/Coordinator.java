package io.kvfleet.control.coordinator;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.Json;
import io.kvfleet.control.kafka.KafkaClients;
import io.kvfleet.control.protocol.OrderSignature;
import io.kvfleet.control.protocol.Protocol;
import io.kvfleet.control.kafka.DeadLetters;
import io.kvfleet.control.kafka.EventPublisher;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.Topics;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EnvelopeDeserializer;
import io.kvfleet.events.replay.FoldOrder;
import io.kvfleet.events.snapshot.StateHash;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.TransferStatus;
import io.kvfleet.events.state.TransferView;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.kafka.client.common.TopicPartition;
import io.vertx.kafka.client.consumer.KafkaConsumer;
import io.vertx.kafka.client.consumer.KafkaConsumerRecord;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.common.serialization.StringDeserializer;
import io.kvfleet.events.trust.Signing;
import io.kvfleet.events.trust.Verdict;
import io.kvfleet.events.trust.Verifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator: folds every fleet event from Kafka into {@link FleetState}, validates transfer
 * requests and dispatches them over the EventBus to the source node's agent, and ends transfers
 * whose deadline passed or whose peer is gone ({@link Endings}), each once ({@link Deciding}). Its
 * event loop owns the state; no locks.
 *
 * <p>At start it reads the log from the beginning and decides nothing until it has caught up with
 * the end offsets it found, so a restart never dispatches a transfer the log already answered.
 * With snapshots ({@link #withSnapshots}) it starts from the newest valid one and reads only the
 * tail. It records the order it folds records in and reports it with its hash ({@link FoldPosition}),
 * so a replay of the same records in that order reaches the same hash.
 *
 * <p>It forgets a transfer {@link #DEFAULT_KEEP_ENDED} (or {@link #withKeepEnded}) of log time
 * after it ended, so its memory and snapshots hold the transfers of that window however long it
 * runs; the log keeps the rest for replays. A request repeating a forgotten transfer's id is
 * decided as a new transfer.
 */
public final class Coordinator extends VerticleBase {
  private static final Logger LOG = LoggerFactory.getLogger(Coordinator.class);
  private final io.kvfleet.control.LogSampling duplicatesLogged = new io.kvfleet.control.LogSampling();

  private final String bootstrapServers;
  private final EventPublisher publisher;
  private final Clock clock;
  /** How long an ended transfer is remembered unless {@link #withKeepEnded} says otherwise. */
  public static final Duration DEFAULT_KEEP_ENDED = Duration.ofMinutes(10);

  private FleetState state = FleetState.keepingEnded(DEFAULT_KEEP_ENDED);
  private FoldOrder.Builder folded = new FoldOrder.Builder(FoldOrder.EMPTY);
  private Snapshotting snapshots = Snapshotting.NONE;
  private String startedFrom = "";
  /** Events this coordinator needed that the log had deleted before it read them. */
  private LogGap gap = LogGap.NONE;
  private final Promise<Void> caughtUp = Promise.promise();
  private final NodesView nodesView = new NodesView();
  /** The same watch over the transfer partitions it decides for: a time-out waits for what reached Kafka first. */
  private final NodesView transfersView = new NodesView();
  private Set<TopicPartition> transferPartitions = Set.of();
  private Set<TopicPartition> nodePartitions = Set.of();
  private long malformed;
  private DeadLetters deadLetters;
  private PoisonRecords poison = new PoisonRecords(null, new java.util.HashSet<>());
  private KafkaConsumer<String, Decoded> consumer;
  private TransferGroup transfers;
  /**
   * This coordinator's publishes to each transfers partition that Kafka has not answered yet
   * (event loop only). A partition taken over waits for its own before it asks for its end:
   * Kafka's rebalance takes every partition away and gives some back, and a dispatch still on its
   * way would otherwise be decided again.
   */
  private final Map<Integer, Set<Future<Void>>> unanswered = new java.util.HashMap<>();
  private String group;
  /** Whole for a lone coordinator; a group member owns nothing until Kafka assigns it partitions. */
  private Ownership ownership = Ownership.whole();
  private final CatchUp catchUp = new CatchUp();
  private FoldWatcher watcher = FoldWatcher.NONE;
  private Signing signing = Signing.off();
  private Verifier verifier = Verifier.off();

  public Coordinator(String bootstrapServers, EventPublisher publisher, Clock clock) {
    this.bootstrapServers = bootstrapServers;
    this.publisher = publisher;
    this.clock = clock;
    this.deciding = new Deciding(publisher.producerId());
  }

  /** Decides for the fleet as it verifies: replaced by {@link #withSigning} (before deploying). */
  private Deciding deciding;

  /**
   * Joins a group of coordinators that share the transfers, partitioned by source node (Kafka
   * consumer group {@code groupId}); every member folds all node events. Call before deploying.
   */
  public Coordinator withGroup(String groupId) {
    this.group = groupId;
    this.ownership = Ownership.none();
    return this;
  }

  /**
   * Forgets a transfer {@code keepEnded} of log time after it ended; call before deploying. A
   * snapshot written with another window is skipped (the log is folded from the start).
   */
  public Coordinator withKeepEnded(Duration keepEnded) {
    this.state = FleetState.keepingEnded(keepEnded);
    return this;
  }

  /** Verifies what it reads against {@code signing}'s trust file (and signs orders with its key); call before deploying. */
  public Coordinator withSigning(Signing newSigning) {
    this.signing = java.util.Objects.requireNonNull(newSigning, "signing must not be null");
    this.verifier = Verifier.of(newSigning);
    this.deciding = new Deciding(publisher.producerId(), verifier);
    return this;
  }

  /** The key this coordinator signs with and the trust file it verifies against. */
  public Signing signing() {
    return signing;
  }

  /** Shows every record folded to {@code foldWatcher} (the ops API and metrics); call before deploying. */
  public Coordinator withWatcher(FoldWatcher foldWatcher) {
    this.watcher = foldWatcher;
    return this;
  }

  /** Starts from the newest valid snapshot in {@code store} and writes new ones as it goes; call before deploying. */
  public Coordinator withSnapshots(SnapshotStore store, Duration interval, long everyEvents) {
    this.snapshots = new Snapshotting(store, interval, everyEvents);
    return this;
  }

  @Override
  public Future<?> start() {
    Protocol.install(vertx.eventBus());
    // The snapshot is read and checked on a worker while the Kafka clients are built (their
    // constructors block: a SASL login, TLS key stores) and the consumer finds the log's partitions and ends.
    var loading = snapshots.load(vertx, publisher.producerId());
    var identifying = snapshots.readTopicIds(vertx, bootstrapServers, Topics.ALL);
    var reading = KafkaClients.<String, Decoded>vertxConsumer(vertx, bootstrapServers,
        LogReader.config(bootstrapServers, publisher.producerId()), new StringDeserializer(), new EnvelopeDeserializer())
        .onSuccess(made -> consumer = made);
    var dead = vertx.executeBlocking(() -> new DeadLetters(bootstrapServers, publisher.producerId()), false)
        .onSuccess(made -> deadLetters = made);
    // join, not all: when one fails, the other may still be opening, and stop() must see it to close it.
    return Future.join(reading, dead).compose(made -> {
      vertx.eventBus().consumer(CoordinatorStatus.address(publisher.producerId()),
          message -> message.reply(Json.write(status())));
      vertx.eventBus().consumer(FoldPosition.address(publisher.producerId()),
          message -> message.reply(Json.write(position())));
      vertx.setPeriodic(200, t -> enforceDeadlinesAndLeases());
      vertx.setPeriodic(snapshots.interval().toMillis(), t -> writeSnapshot());
      var copied = vertx.executeBlocking(() -> DeadLetters.copied(bootstrapServers, Duration.ofSeconds(30)))
          .onSuccess(keys -> poison = new PoisonRecords(deadLetters, keys));
      var assigning = LogReader.assignFromBeginning(consumer, group == null ? Topics.ALL : List.of(Topics.NODES));
      var watching = watcher.started(vertx, new View());
      return Future.join(List.of(loading, identifying, assigning, copied, watching))
          .compose(both -> resume(loading.result(), assigning.result()))
          .compose(resumed -> findGap(assigning.result().keySet()))
          .map(found -> assigning.result());
    }).onSuccess(ends -> {
          catchUp.endsAre(ends);
          nodePartitions = ends.keySet().stream().filter(tp -> tp.getTopic().equals(Topics.NODES))
              .collect(Collectors.toUnmodifiableSet());
          if (group == null) {
            transferPartitions(ends.keySet().stream().filter(tp -> tp.getTopic().equals(Topics.TRANSFERS)).count());
          }
          // Records flow only now: none may be folded before a snapshot's state is in place.
          consumer.handler(this::onRecord);
          decideIfCaughtUp();
        })
        .compose(ends -> group == null ? Future.succeededFuture() : joinGroup())
        // Vert.x calls no stop() for a failed start, and worker-built clients carry no close hook.
        .recover(failure -> stop().transform(stopped -> Future.failedFuture(failure)));
  }

  /** Joins the coordinators' consumer group on the transfers topic. */
  private Future<?> joinGroup() {
    return TransferGroup.open(vertx, context, bootstrapServers, publisher.producerId(), group).compose(opened -> {
      transfers = opened;
      return transfers.join(this::transferPartitions, this::onRecord, this::ownPublishesAnswered,
          (partition, end) -> {
            if (ownership.assigned(partition, end)) {
              decidePartition(partition);
            }
          }, this::release);
    });
  }

  /** The transfers topic has {@code count} partitions: the ones to watch, and who owns what in them. */
  private void transferPartitions(long count) {
    transferPartitions = java.util.stream.IntStream.range(0, (int) count)
        .mapToObj(p -> new TopicPartition(Topics.TRANSFERS, p)).collect(Collectors.toUnmodifiableSet());
    ownership = group == null ? Ownership.whole((int) count) : Ownership.group((int) count);
  }

  /** Takes over a snapshot's state and order, if it belongs to this log, and seeks past what it covers. */
  private Future<?> resume(Optional<SnapshotStore.Snapshot> loaded, Map<TopicPartition, Long> ends) {
    if (loaded.isEmpty() || !snapshots.fits(loaded.get(), ends) || !Snapshotting.keepsLike(loaded.get(), state)) {
      return Future.succeededFuture();
    }
    var snapshot = loaded.get();
    snapshots.resumedFrom(snapshot);
    state = snapshot.state();
    folded = new FoldOrder.Builder(snapshot.header().order());
    startedFrom = snapshot.file().getFileName().toString();
    snapshot.header().order().runs().forEach(r -> catchUp.advance(r.topic(), r.partition(), r.to()));
    return Snapshotting.seekPast(consumer, snapshot.header().order());
  }

  /**
   * Asks where each partition now begins: events deleted before this coordinator could fold them
   * (a retention shorter than the fleet's life, and no snapshot past them) are said, not hidden.
   */
  private Future<?> findGap(java.util.Set<TopicPartition> partitions) {
    return consumer.beginningOffsets(partitions).onSuccess(beginnings -> {
      gap = LogGap.ofKafka(beginnings, folded.nextOffsets());
      gap.byPartition().forEach((partition, missing) -> LOG.warn("{}: the log lost {} events this coordinator "
          + "needed (deleted before it read them: the topic's retention, and no snapshot past them); its state lacks "
          + "the joins, registrations and transfers they said. Keep the fleet topics forever (retention.ms=-1, "
          + "as kvfleet creates them) or run coordinators with snapshots", partition, missing));
    }).recover(failed -> {
      // A diagnosis, not a duty: the coordinator starts without it.
      LOG.warn("could not ask Kafka where the fleet topics begin ({}); events the log lost are not counted",
          failed.toString());
      return Future.succeededFuture();
    });
  }

  private void writeSnapshot() {
    snapshots.maybeWrite(vertx, publisher.producerId(), state, folded, clock);
  }

  /** Completes once the coordinator has caught up with the log it found at start and begins deciding. */
  public Future<Void> caughtUp() {
    return caughtUp.future();
  }

  private FoldPosition position() {
    return new FoldPosition(publisher.producerId(), state.appliedCount(), StateHash.of(state), folded.nextOffsets(),
        folded.build(), startedFrom, state.keepEnded().orElseThrow().toMillis());
  }

  @Override
  public Future<?> stop() {
    // What it folded since its last snapshot is kept first: a restart then resumes from where this one stopped.
    return bounded("its last snapshot", snapshots.writeIfNew(vertx, publisher.producerId(), state, folded, clock))
        .transform(written -> closeParts());
  }

  private Future<?> closeParts() {
    Future<?> reading = consumer == null ? Future.succeededFuture() : bounded("its Kafka consumer", consumer.close());
    var closing = transfers == null ? reading : Future.join(reading, bounded("its group consumer", transfers.close()));
    return Future.join(closing, bounded("its ops server", watcher.stopped()))
        .transform(done -> deadLetters == null ? Future.succeededFuture()
            : vertx.executeBlocking(java.util.concurrent.Executors.callable(deadLetters::close)));
  }

  /**
   * {@code closing}, given up with a WARN after {@link #STOP_STEP}: a stop that waits for ever on one
   * part (a client's connection, a consumer's close) never lets the process end.
   */
  private Future<?> bounded(String what, Future<?> closing) {
    return closing.timeout(STOP_STEP.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS).recover(failed -> {
      LOG.warn("{} stopping: {} did not close ({}); going on without it", publisher.producerId(), what,
          failed.toString());
      return Future.succeededFuture();
    });
  }

  /** The longest a stop waits for one of its parts to close. */
  static final Duration STOP_STEP = Duration.ofSeconds(10);

  private CoordinatorStatus status() {
    var counts = state.counts();
    return new CoordinatorStatus(publisher.producerId(), catchUp.isDone(),
        state.appliedCount(), malformed, poison.count(), counts.opaque(), counts.violations(), StateHash.of(state),
        ownership.owned(),
        counts.transfers(), counts.inFlight(), counts.forgottenTransfers(), counts.lateOutcomes(), gap.total());
  }

  private void onRecord(KafkaConsumerRecord<String, Decoded> record) {
    if (folded.add(record.topic(), record.partition(), record.offset())) {
      fold(record);
    } // else folded already: covered by a snapshot, or re-read after a partition came back to this coordinator
    catchUp.advance(record.topic(), record.partition(), record.offset());
    decideIfCaughtUp();
    if (transfers != null && record.topic().equals(Topics.TRANSFERS)
        && ownership.advance(record.partition(), record.offset())) {
      decidePartition(record.partition());
    }
  }

  private void fold(KafkaConsumerRecord<String, Decoded> record) {
    if (verifier.isOn() && refusal(record) instanceof Verdict.Refused why) {
      // Never folded nor answered, so its producer's sequence numbers, a node's lease and a transfer's end stay
      // as they were.
      poison.add(record.topic(), record.partition(), record.offset(), record.key(), record.value(),
          why.reason() + ": " + why.detail());
      if (catchUp.isDone()) {
        poison.flush(ownership);
      }
      if (record.value() instanceof Decoded.Malformed) {
        malformed++;
      }
      return;
    }
    int transferPartition = record.topic().equals(Topics.TRANSFERS) ? record.partition() : -1;
    var why = PoisonRecords.why(record.topic(), record.value());
    why.ifPresent(reason -> {
      poison.add(record.topic(), record.partition(), record.offset(), record.key(), record.value(), reason);
      if (catchUp.isDone()) {
        poison.flush(ownership);
      }
    });
    switch (record.value()) {
      case null -> malformed++; // a tombstone: Kafka never calls the deserializer for a null value
      case Decoded.Event e -> {
        var envelope = e.envelope();
        boolean redelivered = state.hasSeen(envelope.producer(), envelope.epoch(), envelope.sequence());
        state.apply(envelope);
        watcher.folded(LogReader.logRecord(record), state, redelivered);
        if (redelivered) {
          return; // the fold did not apply it again, so nothing is decided on it again
        }
        deciding.read(state, e.envelope().data(), transferPartition, catchUp.isDone(), ownership, clock.instant())
            .forEach(this::act);
      }
      case Decoded.Malformed m -> {
        malformed++;
        watcher.folded(LogReader.logRecord(record), state, false);
      }
    }
    if (transferPartition >= 0 && why.isPresent()) {
      deciding.unreadable(state, record.value(), transferPartition, catchUp.isDone(), ownership).forEach(this::act);
    }
  }

  /**
   * Why {@code record} is not its writer's word, in a fleet that verifies: it is not where its writer put it
   * ({@code EVENT_MISPLACED}: a signed record copied into another partition still verifies), its writer had no
   * right to say it, or it does not decode and its bytes are not signed by a key that may write what it says it is.
   */
  private Verdict refusal(KafkaConsumerRecord<String, Decoded> record) {
    var misplaced = ownership.misplaced(record.topic(), record.partition(), record.key(), record.value());
    if (misplaced.isPresent()) {
      return new Verdict.Refused(io.kvfleet.events.ReasonCodes.EVENT_MISPLACED, misplaced.get());
    }
    return switch (record.value()) {
      case null -> new Verdict.Trusted(Optional.empty()); // a tombstone: poison below, never answered
      case Decoded.Event e -> refusal(e);
      case Decoded.Malformed m -> UnreadableRequest.verdict(verifier, m) instanceof Verdict.Refused why
          ? new Verdict.Refused(why.reason(), why.detail() + "; malformed: " + m.reason())
          : new Verdict.Trusted(Optional.empty());
    };
  }

  /** Why {@code e}'s writer had no right to say it, if it had none (always trusted without a trust file). */
  private Verdict refusal(Decoded.Event e) {
    return verifier.check(e.raw(), e.envelope(), io.kvfleet.events.trust.Dispatch.in(state));
  }

  /** A transfer partition went to another coordinator: what was left undecided here is its to decide. */
  private void release(int partition) {
    ownership.revoked(partition);
    for (TransferView t : state.inFlightTransfers()) {
      if (ownership.holds(partition, t.request().sourceNode())) {
        deciding.handedOver(t.transferId()); // its end is now for the new owner to read
      }
    }
  }

  /** A transfer partition became this coordinator's: decide what its previous owner left undecided. */
  private void decidePartition(int partition) {
    if (!catchUp.isDone()) {
      return; // decideIfCaughtUp will, once the node events are read
    }
    LOG.info("deciding for transfers partition {}", partition);
    for (TransferView t : state.inFlightTransfers()) {
      if (!ownership.holds(partition, t.request().sourceNode())) {
        continue;
      }
      resume(t);
    }
    takeUpOwned();
  }

  /** Answers the unreadable requests, and copies the poison, of the partitions this coordinator now owns. */
  private void takeUpOwned() {
    deciding.unreadableDue(state, ownership).forEach(this::act);
    poison.flush(ownership);
  }

  private void decideIfCaughtUp() {
    if (catchUp.markAnnounced()) {
      LOG.info("caught up with the log after {} events; deciding", state.appliedCount());
      snapshots.writeIfNew(vertx, publisher.producerId(), state, folded, clock);
      caughtUp.tryComplete();
      for (TransferView t : state.inFlightTransfers()) {
        if (ownership.owns(t.request().sourceNode())) {
          resume(t);
        }
      }
      takeUpOwned();
    }
  }

  /**
   * Takes up a transfer found in flight on catching up: decides a request. A dispatched one needs
   * nothing: its order is in the log, where its agent reads it, and no coordinator's death loses it.
   */
  private void resume(TransferView transfer) {
    if (transfer.status() == TransferStatus.REQUESTED) {
      decide(transfer.request());
    }
  }

  private void decide(TransferRequested request) {
    deciding.decide(state, request, clock.instant()).ifPresent(this::act);
  }

  private void act(Decision.Action decision) {
    if (!owned(decision)) {
      LOG.info("not acting on {}: its partition went to another coordinator", decision);
      if (decision instanceof Decision.Reject r) {
        deciding.dropped(r);
      }
      return;
    }
    switch (decision) {
      case Decision.Reject r -> publish(r.event(), r.partition());
      case Decision.AlreadyAnswered a -> {
        if (duplicatesLogged.next()) {
          LOG.info("duplicate request {} already answered{}", a.transferId(), duplicatesLogged.note());
        }
      }
      case Decision.Dispatch d -> publish(signing.key().map(key -> OrderSignature.sign(d.event(), key))
          .orElse(d.event())).onFailure(refused -> {
            if (KvfleetException.isEventTooLarge(refused)) { // never written: the request is answered instead
              deciding.orderTooLarge(state, d, refused).ifPresent(this::act);
            }
          });
    }
  }

  private boolean owned(Decision.Action decision) {
    return switch (decision) {
      case Decision.Reject r -> r.partition() >= 0 ? ownership.ownsPartition(r.partition())
          : ownership.owns(r.event().sourceNode());
      case Decision.Dispatch d -> ownership.owns(d.order().request().sourceNode());
      case Decision.AlreadyAnswered a -> true;
    };
  }

  private void enforceDeadlinesAndLeases() {
    if (!catchUp.isDone()) {
      return;
    }
    deciding.due(state, ownership::owns, clock.instant()).forEach(this::act);
    long now = clock.millis();
    nodesView.probe(catchUp, now, () -> consumer.endOffsets(nodePartitions), clock::millis);
    transfersView.probe(catchUp, now, () -> consumer.endOffsets(transferPartitions.stream()
        .filter(tp -> ownership.ownsPartition(tp.getPartition())).collect(Collectors.toSet())), clock::millis);
    deciding.endingsDue(state, now, nodesView, transfersView.readUntil(), ownership::owns).forEach(this::publish);
  }

  private Future<Void> publish(FleetEvent event) {
    return publish(event, -1);
  }

  private Future<Void> publish(FleetEvent event, int partition) {
    Future<Void> published = Future.fromCompletionStage(publisher.publish(event, event.subject(), partition), context)
        .mapEmpty();
    // Kept by the transfer partition its duty comes with, node events too (a loss is its node's
    // partition owner's to say), so that a revocation waits for them all (RevocationFence).
    int to = partition >= 0 || transferPartitions.isEmpty()
        ? partition : Ownership.partitionOf(Topics.keyOf(event), transferPartitions.size());
    if (to >= 0 && !published.isComplete()) {
      var waiting = unanswered.computeIfAbsent(to, p -> new java.util.HashSet<>());
      waiting.add(published);
      published.onComplete(answered -> waiting.remove(published));
    }
    return published.onFailure(err -> deciding.unpublished(event, err, clock.millis())
        .ifPresent(smaller -> publish(smaller, partition)));
  }

  /** Completes once Kafka has answered (acknowledged or refused) all this coordinator published so far to these. */
  private Future<?> ownPublishesAnswered(Set<Integer> partitions) {
    List<Future<Void>> waiting = partitions.stream().flatMap(p -> unanswered.getOrDefault(p, Set.of()).stream())
        .toList();
    return Future.join(waiting).transform(all -> Future.succeededFuture());
  }

  /** What the watcher reads: this coordinator, on its event loop. */
  private final class View implements CoordinatorView {
    @Override
    public FleetState state() {
      return state;
    }

    @Override
    public CoordinatorStatus status() {
      return Coordinator.this.status();
    }

    @Override
    public FoldPosition position() {
      return Coordinator.this.position();
    }

    @Override
    public Future<Map<String, Long>> endOffsets() {
      return consumer.assignment().compose(consumer::endOffsets).map(ends -> ends.entrySet().stream()
          .collect(Collectors.toMap(e -> e.getKey().getTopic() + "-" + e.getKey().getPartition(), Map.Entry::getValue)));
    }

    @Override
    public int publisherWaiting() {
      return publisher.waiting();
    }

    @Override
    public int publisherCapacity() {
      return publisher.capacity();
    }
  }
}
