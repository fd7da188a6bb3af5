package io.kvfleet.control.coordinator;

import io.kvfleet.control.kafka.FleetTopics;
import io.kvfleet.events.replay.FoldOrder;
import io.kvfleet.events.replay.LogPosition;
import io.kvfleet.events.snapshot.StateSnapshot;
import io.kvfleet.events.state.FleetState;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.kafka.client.common.TopicPartition;
import io.vertx.kafka.client.consumer.KafkaConsumer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A coordinator's snapshots: at start, the newest valid one is loaded (corrupt, incompatible or
 * foreign ones are skipped and said so) and the consumer is moved past what it covers; while
 * running, a snapshot is written every {@code interval} when at least {@code everyEvents} events
 * were folded since the last, and once when the coordinator catches up (if it folded anything).
 * Capturing the state is done on the event loop (it copies maps); encoding, hashing and writing run
 * on a worker thread.
 */
final class Snapshotting {
  private static final Logger LOG = LoggerFactory.getLogger(Snapshotting.class);

  /** No snapshots: fold the log from the start every time. */
  static final Snapshotting NONE = new Snapshotting(null, Duration.ofDays(1), Long.MAX_VALUE);

  private final SnapshotStore store;
  private final Duration interval;
  private final long everyEvents;
  private long lastApplied;
  private long lastWrite = System.nanoTime();
  private boolean writing;
  /** Kafka's ids of the fleet topics, read at start; without them no snapshot is resumed from or written. */
  private SortedMap<String, String> topicIds;
  private String bootstrapServers;
  private boolean readingIds;
  private boolean idsWarned;
  private List<String> topics = List.of();

  Snapshotting(SnapshotStore store, Duration interval, long everyEvents) {
    this.store = store;
    this.interval = interval;
    this.everyEvents = everyEvents;
  }

  Duration interval() {
    return interval;
  }

  /** The newest snapshot that passes every check, read on a worker thread. */
  Future<Optional<SnapshotStore.Snapshot>> load(Vertx vertx, String coordinatorId) {
    if (store == null) {
      return Future.succeededFuture(Optional.empty());
    }
    return vertx.executeBlocking(() -> {
      var loaded = store.loadNewest(coordinatorId);
      loaded.skipped().forEach(s -> LOG.warn("snapshot {} skipped: {}", s.file(), s.reason()));
      loaded.snapshot().ifPresentOrElse(
          s -> LOG.info("snapshot {} loaded: {} events, hash {}", s.file(), s.header().applied(), s.header().hash()),
          () -> LOG.info("no valid snapshot in {}: folding the log from the start", store.dir()));
      return loaded.snapshot();
    });
  }

  /**
   * Reads Kafka's ids of {@code topics} on a worker thread, which a snapshot must name to be resumed
   * from. When they cannot be read the coordinator folds from the start and writes no snapshot, and says so.
   */
  Future<Void> readTopicIds(Vertx vertx, String bootstrapServers, List<String> topics) {
    if (store == null) {
      return Future.succeededFuture();
    }
    this.bootstrapServers = bootstrapServers;
    this.topics = List.copyOf(topics);
    readingIds = true;
    return vertx.executeBlocking(() -> FleetTopics.ids(bootstrapServers, topics), false).<Void>map(ids -> {
      topicIds = ids;
      return null;
    }).recover(failed -> {
      // Said once: tried again whenever a snapshot is due, which an ACL that denies it would make every interval.
      (idsWarned ? LOG.atDebug() : LOG.atWarn()).log("cannot read the ids of {} ({}): this coordinator does not resume"
          + " from a snapshot, and writes one only once it can read them", topics, failed.getMessage());
      idsWarned = true;
      return Future.succeededFuture();
    }).onComplete(done -> readingIds = false);
  }

  /** The coordinator took {@code snapshot}'s state: the next snapshot is due counting from it. */
  void resumedFrom(SnapshotStore.Snapshot snapshot) {
    lastApplied = snapshot.header().applied();
  }

  /**
   * Whether a snapshot belongs to this log: it names the Kafka id of every topic it folded and they are
   * this cluster's (not another cluster's topics, nor a topic deleted and made again under its name), and
   * every partition it covers holds at least the offsets it says it folded. Otherwise the log is replayed.
   */
  boolean fits(SnapshotStore.Snapshot snapshot, Map<TopicPartition, Long> ends) {
    if (topicIds == null) {
      return false;
    }
    for (String key : snapshot.header().nextOffsets().keySet()) {
      String topic = key.substring(0, key.lastIndexOf('-'));
      String was = snapshot.header().topicIds().get(topic);
      if (was == null || !was.equals(topicIds.get(topic))) {
        LOG.warn("snapshot {} skipped: it folded topic {} with id {}, but {} here has id {} (another cluster, or "
            + "the topic was made again); folding the log from the start", snapshot.file(), topic, was, topic,
            topicIds.get(topic));
        return false;
      }
    }
    var byKey = new HashMap<String, Long>();
    ends.forEach((tp, end) -> byKey.put(LogPosition.partitionKey(tp.getTopic(), tp.getPartition()), end));
    for (var e : snapshot.header().nextOffsets().entrySet()) {
      Long end = byKey.get(e.getKey());
      if (end == null || end < e.getValue()) {
        LOG.warn("snapshot {} skipped: it covers {} up to offset {}, but the log ends at {}",
            snapshot.file(), e.getKey(), e.getValue(), end);
        return false;
      }
    }
    return true;
  }

  /**
   * Whether a snapshot's fold forgets ended transfers after the same window as {@code fresh}'s:
   * otherwise folding on from it would not reach the hash a replay with this window reaches.
   */
  static boolean keepsLike(SnapshotStore.Snapshot snapshot, FleetState fresh) {
    if (snapshot.state().keepEnded().equals(fresh.keepEnded())) {
      return true;
    }
    LOG.warn("snapshot {} skipped: it keeps ended transfers for {}, this coordinator for {}; folding the log "
        + "from the start", snapshot.file(), keeping(snapshot.state()), keeping(fresh));
    return false;
  }

  private static String keeping(FleetState state) {
    return state.keepEnded().map(Duration::toString).orElse("ever");
  }

  /** Moves the consumer past what {@code order} covers. */
  static Future<?> seekPast(KafkaConsumer<?, ?> consumer, FoldOrder order) {
    var seeks = new ArrayList<Future<Void>>();
    for (var run : order.runs()) {
      seeks.add(consumer.seek(new TopicPartition(run.topic(), run.partition()), run.to() + 1));
    }
    return Future.all(seeks);
  }

  /**
   * Writes a snapshot if one is due: {@code everyEvents} folded since the last, or anything folded and ten
   * intervals gone by (a quiet fleet below the event count had no snapshot until a clean stop, so a crash
   * meant folding its whole log again). Call it on the event loop that owns {@code state}.
   */
  void maybeWrite(Vertx vertx, String coordinatorId, FleetState state, FoldOrder.Builder order, Clock clock) {
    long folded = state.appliedCount() - lastApplied;
    if (folded >= everyEvents || folded > 0 && System.nanoTime() - lastWrite >= interval.toNanos() * 10) {
      if (topicIds == null && store != null && bootstrapServers != null && !readingIds) {
        readTopicIds(vertx, bootstrapServers, topics); // not read at start (Kafka away then): the next due one writes
      }
      write(vertx, coordinatorId, state, order, clock);
    }
  }

  /**
   * Writes a snapshot now if anything was folded since the last (on catching up, however short the log, and
   * on a clean stop, so that a restart resumes from where this one stopped); completes once written.
   */
  Future<?> writeIfNew(Vertx vertx, String coordinatorId, FleetState state, FoldOrder.Builder order, Clock clock) {
    return state.appliedCount() > lastApplied ? write(vertx, coordinatorId, state, order, clock)
        : Future.succeededFuture();
  }

  private Future<?> write(Vertx vertx, String coordinatorId, FleetState state, FoldOrder.Builder order, Clock clock) {
    if (store == null || writing) {
      return Future.succeededFuture();
    }
    if (topicIds == null) {
      return Future.succeededFuture();
    }
    writing = true;
    var snapshot = StateSnapshot.of(state);
    var folded = order.build();
    return vertx.executeBlocking(() -> store.write(coordinatorId, snapshot, folded, clock.instant(), topicIds))
        .onComplete(done -> {
          writing = false;
          if (done.succeeded()) {
            lastApplied = snapshot.applied();
            lastWrite = System.nanoTime();
            LOG.info("snapshot {} written: {} events", done.result(), snapshot.applied());
          } else {
            LOG.warn("snapshot not written: {}", done.cause().toString());
          }
        });
  }
}
