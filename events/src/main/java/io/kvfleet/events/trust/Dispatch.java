package io.kvfleet.events.trust;

import static java.util.Objects.requireNonNull;

import io.kvfleet.events.state.FleetState;
import java.util.Optional;
import java.util.function.Function;

/**
 * What a reader knows of a transfer a node key ends, for {@link Verifier#check}.
 *
 * @param sourceNode the node the transfer was requested of: the only node whose key may end it
 * @param dispatched whether it was dispatched (a transfer still requested, or rejected, never was)
 */
public record Dispatch(String sourceNode, boolean dispatched) {
  public Dispatch {
    requireNonNull(sourceNode, "sourceNode must not be null");
  }

  /** The question a reader folding into {@code state} asks {@link Verifier#check} about a transfer's ending. */
  public static Function<String, Optional<Dispatch>> in(FleetState state) {
    return transferId -> state.transfer(transferId).map(t -> new Dispatch(t.request().sourceNode(), t.wasDispatched()));
  }
}
