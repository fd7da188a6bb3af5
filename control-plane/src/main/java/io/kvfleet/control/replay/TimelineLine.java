package io.kvfleet.control.replay;

import io.kvfleet.control.console.EventLine;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.replay.LogPosition;
import io.kvfleet.events.replay.TimelineEntry;
import java.time.Duration;
import java.time.Instant;

/**
 * One timeline entry as {@code --json} writes it.
 *
 * @param sinceStart the record's timestamp minus the first record's
 * @param producer who wrote it; empty for a malformed record
 * @param event the event; null for a malformed record
 * @param malformed why the record is not an event; empty for an event
 */
public record TimelineLine(long index, LogPosition position, Instant timestamp, Duration sinceStart, String key,
    String producer, long epoch, long sequence, String type, FleetEvent event, String malformed) {

  /** The entry for {@code --json}. */
  public static TimelineLine of(TimelineEntry entry) {
    var r = entry.record();
    return switch (r.value()) {
      case Decoded.Event e -> new TimelineLine(entry.index(), r.position(), r.timestamp(), entry.sinceStart(), r.key(),
          e.envelope().producer(), e.envelope().epoch(), e.envelope().sequence(), e.envelope().type(),
          e.envelope().data(), "");
      case Decoded.Malformed m -> new TimelineLine(entry.index(), r.position(), r.timestamp(), entry.sinceStart(),
          r.key(), "", 0, 0, "", null, m.reason());
    };
  }

  /** The entry as one line of text: time since the first record, position, then the event line. */
  public static String text(TimelineEntry entry) {
    var r = entry.record();
    String since = String.format("+%d.%03ds", entry.sinceStart().toSeconds(), entry.sinceStart().toMillisPart());
    String what = switch (r.value()) {
      case Decoded.Event e -> EventLine.format(e.envelope());
      case Decoded.Malformed m -> EventLine.oneLine("MALFORMED (key '" + r.key() + "'): " + m.reason());
    };
    return String.format("%10s  %-24s %s", since, r.position(), what);
  }
}
