package io.kvfleet.control.protocol;

import static java.util.Objects.requireNonNull;

import io.kvfleet.events.DispatchedOrder;
import io.kvfleet.events.DispatchedPart;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.TransferRequested;
import java.util.List;
import java.util.Map;

/**
 * What the coordinator orders a source node's agent to run: a validated request and what the fleet
 * state knows of both regions and of the destination node. It travels in the log, as the {@link
 * DispatchedOrder} of a {@code transfer.dispatched} ({@link #of}, {@link #dispatched}).
 *
 * @param destinationKeys backend name to the destination region's remote key
 * @param destinationTransport the destination node's exported transport address
 * @param requestEventId envelope id of the request record: an agent runs the orders of one request
 *     once, however often they are sent, and a later request that reuses a forgotten transfer id anew
 * @param parts a request transfer's buffers, expanded by the coordinator (then {@code source},
 *     {@code destination} and {@code destinationKeys} are the first part's); empty for the
 *     single-region form, and when an older coordinator sent the order
 */
public record TransferOrder(
    TransferRequested request,
    RegionSpec source,
    RegionSpec destination,
    Map<String, String> destinationKeys,
    String destinationTransport,
    String requestEventId,
    List<OrderPart> parts) {
  public TransferOrder {
    requireNonNull(request, "request must not be null");
    requireNonNull(source, "source must not be null");
    requireNonNull(destination, "destination must not be null");
    destinationKeys = Map.copyOf(requireNonNull(destinationKeys, "destinationKeys must not be null"));
    requireNonNull(destinationTransport, "destinationTransport must not be null");
    requireNonNull(requestEventId, "requestEventId must not be null");
    parts = parts == null ? List.of() : List.copyOf(parts);
  }

  /** The order of a single-region transfer. */
  public TransferOrder(TransferRequested request, RegionSpec source, RegionSpec destination,
      Map<String, String> destinationKeys, String destinationTransport, String requestEventId) {
    this(request, source, destination, destinationKeys, destinationTransport, requestEventId, List.of());
  }

  /** The order a dispatch carries. */
  public static TransferOrder of(DispatchedOrder order) {
    return new TransferOrder(order.request(), order.source(), order.destination(), order.destinationKeys(),
        order.destinationTransport(), order.requestEventId(), order.parts().stream()
            .map(p -> new OrderPart(p.component(), p.buffer(), p.source(), p.destination(), p.destinationKeys(),
                p.ranges()))
            .toList());
  }

  /** This order as a dispatch carries it. */
  public DispatchedOrder dispatched() {
    return new DispatchedOrder(request, requestEventId, source, destination, destinationKeys, destinationTransport,
        parts.stream().map(p -> new DispatchedPart(p.component(), p.buffer(), p.source(), p.destination(),
            p.destinationKeys(), p.ranges())).toList());
  }
}
