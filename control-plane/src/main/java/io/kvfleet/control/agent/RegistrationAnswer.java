package io.kvfleet.control.agent;

import com.fasterxml.jackson.annotation.JsonValue;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.RegionDeregistered;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a local worker is told after asking to (de)register buffers: the overall outcome, the
 * counts and each entry's outcome with its reason and diagnosis, every outcome event, and whether
 * they are durably in Kafka yet or still waiting in the agent's buffer.
 *
 * @param outcome {@code registered} (no entry failed), {@code partial}, {@code failed} (none
 *     registered, some failed), or {@code deregistered}; skipped entries are not failures
 * @param durable whether Kafka acknowledged every outcome before the answer was given
 * @param pendingEvents events of this agent still waiting for Kafka when the answer was given
 */
public record RegistrationAnswer(Outcome outcome, EntryOutcomes.Counts counts, List<EntryOutcomes.Entry> entries,
    List<Map<String, Object>> events, boolean durable, int pendingEvents) {

  /** The answer's overall outcome; lower case on the wire. */
  public enum Outcome {
    REGISTERED, PARTIAL, FAILED, DEREGISTERED;

    @JsonValue
    String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  static RegistrationAnswer of(List<FleetEvent> events, boolean durable, int pendingEvents) {
    var entries = EntryOutcomes.of(events);
    var counts = EntryOutcomes.count(entries);
    return new RegistrationAnswer(outcome(counts, events), counts, entries,
        events.stream().<Map<String, Object>>map(e -> Map.of("type", e.wireType(), "data", e)).toList(),
        durable, pendingEvents);
  }

  private static Outcome outcome(EntryOutcomes.Counts counts, List<FleetEvent> events) {
    if (counts.failed() > 0) {
      return counts.registered() > 0 ? Outcome.PARTIAL : Outcome.FAILED;
    }
    boolean released = counts.registered() + counts.skipped() == 0
        && events.stream().anyMatch(e -> e instanceof RegionDeregistered);
    return released ? Outcome.DEREGISTERED : Outcome.REGISTERED;
  }
}
