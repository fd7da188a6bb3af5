package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A node agent started: a new incarnation ({@code epoch}) of {@code nodeId}. Everything tied to an
 * older epoch of the node is stale from this event on.
 *
 * @param transportAddress what peers need to connect (e.g. a base64 UCX worker address); may be empty
 */
public record PeerJoined(
    String nodeId,
    long epoch,
    String host,
    String transportAddress,
    List<BackendCapability> capabilities)
    implements FleetEvent {
  public PeerJoined {
    Checks.id("nodeId", nodeId);
    requireNonNull(host, "host must not be null");
    requireNonNull(transportAddress, "transportAddress must not be null (use \"\")");
    capabilities = List.copyOf(requireNonNull(capabilities, "capabilities must not be null"));
    Checks.positiveEpoch(epoch);
  }

  @Override
  public String subject() {
    return nodeId;
  }
}
