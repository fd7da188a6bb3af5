package io.kvfleet.events.state;

import static java.util.Objects.requireNonNull;

/**
 * An event that broke an invariant of the log; the fold records it and goes on.
 *
 * @param eventId the envelope id of the offending event
 * @param type its wire type
 * @param message what invariant it broke, in words an operator reads
 */
public record Violation(String eventId, String type, String message) {
  public Violation {
    requireNonNull(eventId, "eventId must not be null");
    requireNonNull(type, "type must not be null");
    requireNonNull(message, "message must not be null");
  }
}
