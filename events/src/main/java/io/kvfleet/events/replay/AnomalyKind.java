package io.kvfleet.events.replay;

/** What kind of thing a replay found wrong with a log. */
public enum AnomalyKind {
  /** Sequence numbers of a producer incarnation are missing between ones the log holds. */
  SEQUENCE_GAP,
  /** An event came again with a sequence number already seen (a redelivery); it was not folded twice. */
  DUPLICATE,
  /** Within one partition, a producer's sequence number went down without being a redelivery. */
  SEQUENCE_REGRESSION,
  /**
   * Within one partition, a record is stamped more than a second before one ahead of it: a writer's
   * clock, or its stamp, is off (topics that keep their writers' stamps; kvfleet's own are stamped by
   * the broker, whose clock can step back too). Replay orders and cuts by stamps, so the records
   * behind the later stamp were folded after it, and a replay until a time between the two stops
   * before them.
   */
  TIMESTAMP_REGRESSION,
  /**
   * A transfer was requested and never ended (no completion, failure, rejection or time-out), in a
   * replay to the log's end; one stopped at its until shows what was in flight then in its state.
   */
  UNTERMINATED_TRANSFER,
  /** An event from, or about, an incarnation older than its node's current one. */
  STALE_EPOCH,
  /** A record that is not a readable event (schema check failed): its reason is kept. */
  MALFORMED,
  /** An event of a type or schema version this build cannot read; it was kept as opaque data. */
  UNREADABLE_TYPE,
  /** A record on another topic or under another key than its event belongs to. */
  MISROUTED,
  /** A node's own event written by another producer or at another epoch than the one it names. */
  PRODUCER_MISMATCH,
  /**
   * A transfer's outcome came after another producer had ended it: the source's agent reported after
   * a coordinator's time-out or peer verdict, or the other way round. The first end is kept.
   */
  LATE_OUTCOME,
  /**
   * A record its writer had no right to say (unsigned, a bad signature, an unknown key, a key speaking for
   * another producer or node, or a role that may not write its type): never folded. Only with a trust file.
   */
  UNAUTHENTICATED,
  /** The fold found an invariant broken (a transfer ending twice, a heartbeat before a join...). */
  VIOLATION
}
