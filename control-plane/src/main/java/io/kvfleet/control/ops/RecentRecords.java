package io.kvfleet.control.ops;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.replay.ExplainTarget;
import io.kvfleet.events.replay.Explanation;
import io.kvfleet.events.replay.LogPosition;
import io.kvfleet.events.replay.LogRecord;
import io.kvfleet.events.replay.Replay;
import io.kvfleet.events.replay.ReplayOptions;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The newest records the coordinator folded, in its fold order, numbered from 1: what the events
 * endpoint pages through and what explanations replay (an explanation covers these records; the
 * whole log is {@code kvfleet explain}'s). One thread owns it (the coordinator's event loop).
 */
final class RecentRecords {
  /** One kept record and its number. */
  record Numbered(long index, LogRecord record) {}

  /** An event as the API shows it. */
  record EventItem(long index, LogPosition position, Instant time, String producer, long epoch, long sequence,
      String type, String node, String subject, Object data) {
    static Optional<EventItem> of(Numbered n) {
      if (!(n.record().value() instanceof Decoded.Event e)) {
        return Optional.empty();
      }
      Envelope env = e.envelope();
      return Optional.of(new EventItem(n.index(), n.record().position(), env.time(), env.producer(), env.epoch(),
          env.sequence(), env.type(), env.data().nodeId(), env.subject(), env.data()));
    }
  }

  /** Which events to show. */
  record Filter(Optional<String> node, Optional<String> type, Optional<Instant> since, Optional<Instant> until) {
    boolean test(EventItem item) {
      return node.map(item.node()::equals).orElse(true)
          && type.map(item.type()::equals).orElse(true)
          && since.map(s -> !item.time().isBefore(s)).orElse(true)
          && until.map(u -> item.time().isBefore(u)).orElse(true);
    }
  }

  /** One page of events and the {@code after} that reads the next. */
  record Page(List<EventItem> items, long next, long oldestKept) {}

  private final int capacity;
  private final ArrayDeque<Numbered> kept = new ArrayDeque<>();
  private long count;

  RecentRecords(int capacity) {
    this.capacity = capacity;
  }

  Numbered add(LogRecord record) {
    var numbered = new Numbered(++count, record);
    kept.addLast(numbered);
    if (kept.size() > capacity) {
      kept.removeFirst();
    }
    return numbered;
  }

  /** Up to {@code limit} events numbered after {@code after} that pass {@code filter}, oldest first. */
  Page page(long after, int limit, Filter filter) {
    var items = new ArrayList<EventItem>();
    long next = after;
    for (var n : kept) {
      if (n.index() <= after) {
        continue;
      }
      if (items.size() == limit) {
        break;
      }
      next = n.index();
      EventItem.of(n).filter(filter::test).ifPresent(items::add);
    }
    return new Page(items, next, kept.isEmpty() ? 0 : kept.getFirst().index());
  }

  /** The causal chain behind {@code target}, replayed from the kept records (the {@code kvfleet explain} logic). */
  Explanation explain(ExplainTarget target) {
    var replay = new Replay(ReplayOptions.defaults().explaining(target));
    for (var n : kept) {
      replay.accept(n.record());
    }
    return replay.finish().explain(target);
  }
}
