package io.kvfleet.control.ops;

import io.kvfleet.events.EventType;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/** The wire names of the event types this build knows. */
final class EventTypes {
  static final Set<String> WIRE_NAMES =
      Arrays.stream(EventType.values()).map(EventType::wireName).collect(Collectors.toUnmodifiableSet());

  private EventTypes() {}
}
