package io.kvfleet.events.replay;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.OpaqueEvent;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.SequenceGap;
import io.kvfleet.events.state.TransferView;
import io.kvfleet.events.state.Violation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds what is wrong with a log while it is folded. There is no signing yet, so "authenticity"
 * means integrity: the schema (malformed and unreadable records), routing (topic and key), the
 * producer of a node's own events, and sequence numbers (gaps, redeliveries, regressions).
 */
final class Anomalies implements ReplayObserver {
  /** At most this many anomalies of each kind are listed; all are counted. */
  static final int EXAMPLES_PER_KIND = 1_000;
  /** How far a record's stamp may fall behind one ahead of it in its partition before it is an anomaly. */
  static final Duration STAMP_TOLERANCE = Duration.ofSeconds(1);
  /**
   * How long past its deadline a transfer not ended at a replay's until is an anomaly rather than in
   * flight: a coordinator times a transfer out a moment after its deadline, not at it.
   */
  static final Duration OVERDUE = Duration.ofSeconds(30);

  private final Map<AnomalyKind, Long> counts = new EnumMap<>(AnomalyKind.class);
  private final List<Anomaly> listed = new ArrayList<>();
  private final Map<ProducerInPartition, LastSequence> lastSequenceInPartition = new HashMap<>();
  private final Map<String, Map<Integer, LatestStamp>> latestStamps = new HashMap<>();
  /** The replay stopped at its until: a transfer not ended by then is in flight there, not unended. */
  private boolean cut;
  private long violationsBefore;
  private long lateBefore;

  @Override
  public void before(LogRecord record, Envelope e, FleetState state) {
    violationsBefore = state.violationCount();
    lateBefore = state.lateOutcomeCount();
    if (state.hasSeen(e.producer(), e.epoch(), e.sequence())) {
      add(AnomalyKind.DUPLICATE, record, e.producer(), e.producer() + " epoch " + e.epoch() + " sequence "
          + e.sequence() + " came again (" + e.type() + "); it was not folded twice");
      return;
    }
    checkSequenceOrder(record, e);
    checkEpoch(record, e, state);
    checkRouting(record, e);
    if (e.data() instanceof OpaqueEvent o) {
      add(AnomalyKind.UNREADABLE_TYPE, record, e.producer(), "type " + o.wireType() + " version "
          + o.schemaVersion() + " is not readable by this build; kept as opaque data");
    }
  }

  @Override
  public void after(LogRecord record, Envelope e, FleetState state) {
    if (state.violationCount() > violationsBefore) {
      for (Violation v : state.violationsFrom(violationsBefore)) {
        add(AnomalyKind.VIOLATION, record, e.data().subject(), v.message());
      }
    }
    if (state.lateOutcomeCount() > lateBefore) {
      state.transfer(e.data().subject()).ifPresent(t -> add(AnomalyKind.LATE_OUTCOME, record, t.transferId(),
          e.type() + " from " + e.producer() + " came after " + t.endedBy() + " had ended transfer " + t.transferId()
              + " as " + t.status() + (t.reason().isEmpty() ? "" : " " + t.reason()) + " at " + t.updatedAt()
              + "; the first end is kept"));
    }
  }

  @Override
  public void refused(LogRecord record, Envelope envelope, io.kvfleet.events.trust.Verdict.Refused why) {
    add(AnomalyKind.UNAUTHENTICATED, record, envelope.producer(), why.reason() + ": " + why.detail() + " (not folded)");
  }

  @Override
  public void malformed(LogRecord record, Decoded.Malformed m) {
    add(AnomalyKind.MALFORMED, record, record.key(), m.reason());
  }

  @Override
  public void finish(FleetState state, Instant last) {
    for (SequenceGap gap : state.sequenceGaps()) {
      add(new Anomaly(AnomalyKind.SEQUENCE_GAP, null, null, gap.producer(), gap.producer() + " epoch "
          + gap.epoch() + " is missing sequence " + (gap.size() == 1 ? gap.from() : gap.from() + ".." + gap.to())
          + " (" + gap.size() + " event" + (gap.size() == 1 ? "" : "s") + ")"));
    }
    for (TransferView t : state.inFlightTransfers()) {
      Instant deadline = Instant.ofEpochMilli(t.request().deadlineMillis());
      if (!cut) {
        add(new Anomaly(AnomalyKind.UNTERMINATED_TRANSFER, null, t.requestedAt(), t.transferId(), "transfer "
            + t.transferId() + " " + t.status() + " since " + t.requestedAt() + ", never ended"
            + (deadline.isBefore(last) ? "; its deadline " + deadline + " passed" : "")));
      } else if (deadline.plus(OVERDUE).isBefore(last)) {
        add(new Anomaly(AnomalyKind.UNTERMINATED_TRANSFER, null, t.requestedAt(), t.transferId(), "transfer "
            + t.transferId() + " " + t.status() + " since " + t.requestedAt() + ", not ended by the until though"
            + " its deadline " + deadline + " passed more than " + OVERDUE.toSeconds() + " s before"));
      }
    }
  }

  /**
   * Every record, folded or not: is it stamped more than {@link #STAMP_TOLERANCE} before a record
   * ahead of it in its partition? Said once per record ahead. Less is the usual jitter of writers'
   * stamps: several producers share a partition, and each stamps a record when it hands it over.
   */
  @Override
  public void record(LogRecord record) {
    var position = record.position();
    long stamp = record.timestamp().toEpochMilli();
    Map<Integer, LatestStamp> partitions = latestStamps.get(position.topic());
    if (partitions == null) {
      partitions = new HashMap<>();
      latestStamps.put(position.topic(), partitions);
    }
    LatestStamp latest = partitions.get(position.partition());
    if (latest == null) {
      partitions.put(position.partition(), new LatestStamp(stamp, position.offset()));
    } else if (stamp >= latest.stamp) {
      latest.stamp = stamp;
      latest.offset = position.offset();
      latest.reported = false;
    } else if (!latest.reported && latest.stamp - stamp > STAMP_TOLERANCE.toMillis()) {
      latest.reported = true;
      var ahead = new LogPosition(position.topic(), position.partition(), latest.offset);
      add(AnomalyKind.TIMESTAMP_REGRESSION, record, record.key(), position + " is stamped " + record.timestamp()
          + ", " + Duration.ofMillis(latest.stamp - stamp) + " before " + ahead + " ahead of it, stamped "
          + Instant.ofEpochMilli(latest.stamp) + ": a writer's or the broker's clock, or a stamp, is off; the records"
          + " stamped before " + ahead + " behind it were folded after it, and a replay until a time between the"
          + " two stops before them");
    }
  }

  /** The latest stamp so far in one partition, its record's offset, and whether a record behind it was reported. */
  private static final class LatestStamp {
    long stamp;
    long offset;
    boolean reported;

    LatestStamp(long stamp, long offset) {
      this.stamp = stamp;
      this.offset = offset;
    }
  }

  /** The replay stopped at its until, before the log's end. */
  void cut() {
    cut = true;
  }

  AnomalyReport report() {
    return new AnomalyReport(new java.util.TreeMap<>(counts), listed);
  }

  private void checkSequenceOrder(LogRecord record, Envelope e) {
    var position = record.position();
    var key = new ProducerInPartition(e.producer(), e.epoch(), position.topic(), position.partition());
    LastSequence last = lastSequenceInPartition.computeIfAbsent(key, k -> new LastSequence(e.sequence()));
    long previous = last.sequence;
    last.sequence = e.sequence();
    if (e.sequence() < previous) {
      add(AnomalyKind.SEQUENCE_REGRESSION, record, e.producer(), e.producer() + " epoch " + e.epoch()
          + " wrote sequence " + e.sequence() + " after " + previous + " in " + position.partitionKey());
    }
  }

  /**
   * One producer incarnation's writes to one partition, where its sequence numbers must rise. Its
   * hash and equality are written out: the record's generated ones cost this per-record lookup a
   * method-handle chain.
   */
  private record ProducerInPartition(String producer, long epoch, String topic, int partition) {
    @Override
    public boolean equals(Object o) {
      return o instanceof ProducerInPartition p && epoch == p.epoch && partition == p.partition
          && producer.equals(p.producer) && topic.equals(p.topic);
    }

    @Override
    public int hashCode() {
      return ((producer.hashCode() * 31 + Long.hashCode(epoch)) * 31 + topic.hashCode()) * 31 + partition;
    }
  }

  /** The last sequence number seen of one producer incarnation in one partition, updated in place (no boxing). */
  private static final class LastSequence {
    long sequence;

    LastSequence(long sequence) {
      this.sequence = sequence;
    }
  }

  private void checkEpoch(LogRecord record, Envelope e, FleetState state) {
    NodeEpoch about = NodeEpoch.of(e.data());
    if (state.isStaleEpoch(e.producer(), e.epoch())) {
      add(AnomalyKind.STALE_EPOCH, record, e.producer(), e.type() + " written by " + e.producer() + " epoch "
          + e.epoch() + " after it rejoined at epoch " + currentEpoch(state, e.producer()));
    } else if (about != null && !(e.data() instanceof PeerJoined) && state.isStaleEpoch(about.nodeId(), about.epoch())) {
      add(AnomalyKind.STALE_EPOCH, record, about.nodeId(), e.type() + " names " + about.nodeId() + " epoch "
          + about.epoch() + ", older than its current epoch " + currentEpoch(state, about.nodeId()));
    }
    if (about != null && about.ownEvent() && (!e.producer().equals(about.nodeId()) || e.epoch() != about.epoch())) {
      add(AnomalyKind.PRODUCER_MISMATCH, record, about.nodeId(), e.type() + " about " + about.nodeId() + " epoch "
          + about.epoch() + " was written by " + e.producer() + " epoch " + e.epoch());
    }
  }

  private void checkRouting(LogRecord record, Envelope e) {
    String topic = Topics.topicOf(e);
    String key = Topics.keyOf(e);
    if (!topic.equals(record.position().topic()) || !key.equals(record.key())) {
      add(AnomalyKind.MISROUTED, record, key, e.type() + " belongs on " + topic + " under key '" + key
          + "' but was on " + record.position().topic() + " under key '" + record.key() + "'");
    }
  }

  private static long currentEpoch(FleetState state, String nodeId) {
    return state.peer(nodeId).map(p -> p.epoch()).orElse(0L);
  }

  private void add(AnomalyKind kind, LogRecord record, String subject, String message) {
    add(new Anomaly(kind, record.position(), record.timestamp(), subject, message));
  }

  private void add(Anomaly anomaly) {
    long count = counts.merge(anomaly.kind(), 1L, Long::sum);
    if (count <= EXAMPLES_PER_KIND) {
      listed.add(anomaly);
    }
  }
}
