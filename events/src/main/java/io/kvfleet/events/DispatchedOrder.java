package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

/**
 * The whole order a {@link TransferDispatched} carries to the source node's agent, which takes its
 * orders from the log: the validated request and what the fleet state knew of both regions and of
 * the destination node when the coordinator dispatched it.
 *
 * @param requestEventId envelope id of the request record: an agent runs the order of one request
 *     record once, however often it is dispatched
 * @param destinationKeys backend name to the destination region's remote key
 * @param destinationTransport the destination node's exported transport address
 * @param parts a request transfer's buffers (then {@code source}, {@code destination} and
 *     {@code destinationKeys} are the first part's); empty for the single-region form
 */
public record DispatchedOrder(
    TransferRequested request,
    String requestEventId,
    RegionSpec source,
    RegionSpec destination,
    Map<String, String> destinationKeys,
    String destinationTransport,
    List<DispatchedPart> parts) {
  public DispatchedOrder {
    requireNonNull(request, "request must not be null");
    requireNonNull(requestEventId, "requestEventId must not be null");
    requireNonNull(source, "source must not be null");
    requireNonNull(destination, "destination must not be null");
    destinationKeys = Map.copyOf(requireNonNull(destinationKeys, "destinationKeys must not be null"));
    requireNonNull(destinationTransport, "destinationTransport must not be null");
    parts = List.copyOf(requireNonNull(parts, "parts must not be null"));
  }
}
