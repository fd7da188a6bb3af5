package io.kvfleet.events.state;

import io.kvfleet.events.ModelLayoutDeclared;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The layout part of the fold: the model layout each node declared at its current epoch. A new
 * epoch, a loss or a departure forgets it (the process that served the layout is gone).
 */
final class Layouts {
  private final SortedMap<String, ModelLayoutDeclared> byNode = new TreeMap<>();

  void declared(ModelLayoutDeclared e, long currentEpoch, boolean ended, Applying at) {
    if (e.epoch() != currentEpoch || ended) {
      at.violation("layout of " + e.nodeId() + " epoch " + e.epoch() + " declared, but "
          + (e.epoch() != currentEpoch ? "its current epoch is " + currentEpoch : "that incarnation has ended")
          + "; not kept");
      return;
    }
    byNode.put(e.nodeId(), e);
  }

  /** The node's incarnation changed or ended: its layout no longer holds. */
  void forget(String nodeId) {
    byNode.remove(nodeId);
  }

  Optional<ModelLayoutDeclared> of(String nodeId) {
    return Optional.ofNullable(byNode.get(nodeId));
  }

  SortedMap<String, ModelLayoutDeclared> image() {
    return new TreeMap<>(byNode);
  }

  void restore(SortedMap<String, ModelLayoutDeclared> image) {
    byNode.putAll(image);
  }
}
