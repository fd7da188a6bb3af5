package io.kvfleet.control.agent;

import io.kvfleet.events.FleetEvent;
import java.util.List;
import java.util.Map;

/**
 * What a local worker is told after asking to (de)register buffers: every outcome event, and
 * whether they are durably in Kafka yet or still waiting in the agent's buffer.
 *
 * @param durable whether Kafka acknowledged every outcome before the answer was given
 * @param pendingEvents events of this agent still waiting for Kafka when the answer was given
 */
public record RegistrationAnswer(List<Map<String, Object>> events, boolean durable, int pendingEvents) {

  static RegistrationAnswer of(List<FleetEvent> events, boolean durable, int pendingEvents) {
    return new RegistrationAnswer(
        events.stream().<Map<String, Object>>map(e -> Map.of("type", e.wireType(), "data", e)).toList(),
        durable, pendingEvents);
  }
}
