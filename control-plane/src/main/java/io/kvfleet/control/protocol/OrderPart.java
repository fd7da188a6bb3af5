package io.kvfleet.control.protocol;

import static java.util.Objects.requireNonNull;

import io.kvfleet.events.ByteRange;
import io.kvfleet.events.RegionSpec;
import java.util.List;
import java.util.Map;

/**
 * One buffer of one component of a request transfer, as the coordinator expanded it: both
 * regions, what the fleet knows of the destination's, and the byte ranges of the request's pages
 * or slots in it.
 *
 * @param buffer the buffer's index within its component (its position in the layout)
 * @param destinationKeys backend name to the destination region's remote key
 */
public record OrderPart(
    String component,
    int buffer,
    RegionSpec source,
    RegionSpec destination,
    Map<String, String> destinationKeys,
    List<ByteRange> ranges) {
  public OrderPart {
    requireNonNull(component, "component must not be null");
    requireNonNull(source, "source must not be null");
    requireNonNull(destination, "destination must not be null");
    destinationKeys = Map.copyOf(requireNonNull(destinationKeys, "destinationKeys must not be null"));
    ranges = List.copyOf(requireNonNull(ranges, "ranges must not be null"));
  }

  /** The bytes this part moves. */
  public long bytes() {
    return ranges.stream().mapToLong(ByteRange::length).sum();
  }
}
