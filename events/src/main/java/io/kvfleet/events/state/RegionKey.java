package io.kvfleet.events.state;

import java.util.Comparator;

/** A region's identity: region ids are unique per node (public as a part of a {@link StateImage}). */
public record RegionKey(String nodeId, String regionId) implements Comparable<RegionKey> {
  private static final Comparator<RegionKey> ORDER =
      Comparator.comparing(RegionKey::nodeId).thenComparing(RegionKey::regionId);

  @Override
  public int compareTo(RegionKey other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    return regionId + " of node " + nodeId;
  }
}
