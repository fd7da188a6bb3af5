package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

/**
 * One buffer of a request transfer as the coordinator expanded it into a dispatched order: both
 * regions, the destination region's remote keys and the byte ranges to move.
 *
 * @param buffer the buffer's index within its component
 * @param destinationKeys backend name to the destination region's remote key
 */
public record DispatchedPart(
    String component,
    int buffer,
    RegionSpec source,
    RegionSpec destination,
    Map<String, String> destinationKeys,
    List<ByteRange> ranges) {
  public DispatchedPart {
    requireNonNull(component, "component must not be null");
    requireNonNull(source, "source must not be null");
    requireNonNull(destination, "destination must not be null");
    destinationKeys = Map.copyOf(requireNonNull(destinationKeys, "destinationKeys must not be null"));
    ranges = List.copyOf(requireNonNull(ranges, "ranges must not be null"));
  }
}
