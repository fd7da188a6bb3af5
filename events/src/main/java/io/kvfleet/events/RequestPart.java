package io.kvfleet.events;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * One component of a request transfer: the pages (KV) or slots (state, aux) the request holds on
 * the source and where they go on the destination, pairwise; the coordinator expands them over every
 * buffer of the component.
 */
public record RequestPart(String component, List<Integer> sourceIndices, List<Integer> destinationIndices) {
  public RequestPart {
    requireNonNull(component, "component must not be null");
    sourceIndices = List.copyOf(requireNonNull(sourceIndices, "sourceIndices must not be null"));
    destinationIndices = List.copyOf(requireNonNull(destinationIndices, "destinationIndices must not be null"));
  }
}
