package io.kvfleet.events.snapshot;

import io.kvfleet.events.state.StateImage;

/** The hash of a state image by {@link CanonicalReference} and by {@link Canonical}, for the JMH benchmark. */
public final class ReferenceStateHash {
  private ReferenceStateHash() {}

  /** {@link StateHash#of} as it was at 22f3146. */
  public static String reference(StateImage image) {
    return CanonicalReference.sha256(StateHash.parts(image));
  }

  /** {@link StateHash#of} as it is. */
  public static String current(StateImage image) {
    return StateHash.of(image);
  }
}
