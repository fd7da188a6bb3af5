package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

/**
 * An event this build cannot read: an unknown type, or a known type at a newer schema version. It
 * is kept as data (its raw JSON) so that consumption goes on and nothing is lost.
 *
 * @param wireType the type attribute as written
 * @param schemaVersion the schema version as written
 * @param rawData the event's data as raw JSON text
 */
public record OpaqueEvent(String nodeId, String subject, String wireType, int schemaVersion, String rawData)
    implements FleetEvent {
  public OpaqueEvent {
    requireNonNull(nodeId, "nodeId must not be null (use \"\")");
    requireNonNull(subject, "subject must not be null (use \"\")");
    requireNonNull(wireType, "wireType must not be null");
    requireNonNull(rawData, "rawData must not be null");
  }
}
