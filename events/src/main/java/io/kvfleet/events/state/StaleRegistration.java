package io.kvfleet.events.state;

import static java.util.Objects.requireNonNull;

/**
 * A registration outcome that named an epoch other than its node's current one, or came after
 * that incarnation was lost or left, kept as stale instead of live.
 *
 * @param eventId the envelope id of the registration
 * @param epoch the epoch the registration named
 * @param currentEpoch the node's current epoch then, 0 when the node had not joined (equal to
 *     {@code epoch} when the registration came after that incarnation ended)
 */
public record StaleRegistration(
    String eventId, String nodeId, String regionId, String backend, long epoch, long currentEpoch) {
  public StaleRegistration {
    requireNonNull(eventId, "eventId must not be null");
    requireNonNull(nodeId, "nodeId must not be null");
    requireNonNull(regionId, "regionId must not be null");
    requireNonNull(backend, "backend must not be null");
  }
}
