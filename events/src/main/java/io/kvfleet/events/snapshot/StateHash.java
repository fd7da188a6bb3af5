package io.kvfleet.events.snapshot;

import static java.util.Objects.requireNonNull;

import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.StateImage;
import java.util.List;

/**
 * A state's hash: hex SHA-256 of the {@link Canonical} form of all it holds, so the same log gives
 * the same hash in every JVM, whatever the iteration order of any map.
 */
public final class StateHash {
  private StateHash() {}

  /** The hash of {@code state}; call it on the thread that owns the state. */
  public static String of(FleetState state) {
    return of(requireNonNull(state, "state must not be null").image());
  }

  /** The hash of the state {@code image} was taken of. */
  static String of(StateImage image) {
    return Canonical.sha256(parts(image));
  }

  /** What the hash is of: the image's parts, grouped as they were when the hash was first written. */
  static List<Object> parts(StateImage image) {
    return List.of(
        image.applied(), image.peers(),
        List.of(image.regions(), image.staleRegistrations(), image.staleKeys(), image.failures(),
            image.failuresByReason()),
        image.transfers(),
        List.of(image.keepEndedMillis(), image.forgottenTransfers(), image.lateOutcomes()), image.sequences(),
        image.skipped(), image.decisions(), image.opaqueByType(), image.violations(), image.layouts());
  }
}
