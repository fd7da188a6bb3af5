package io.kvfleet.events.trust;

import static java.util.Objects.requireNonNull;

import java.security.PublicKey;
import java.util.Set;

/** One trusted public key and what its holder may speak as: a role, producer names, node ids. */
public record KeyBinding(String id, PublicKey publicKey, Role role, Set<String> producers, Set<String> nodes) {
  public KeyBinding {
    requireNonNull(id, "key id must not be null");
    requireNonNull(publicKey, "public key must not be null");
    requireNonNull(role, "role must not be null");
    producers = Set.copyOf(requireNonNull(producers, "producers must not be null"));
    nodes = Set.copyOf(requireNonNull(nodes, "nodes must not be null"));
  }

  /** Whether this key may write as the producer named {@code producer}. */
  public boolean mayProduceAs(String producer) {
    return producers.contains(producer);
  }

  /** Whether this key may speak for node {@code nodeId}. */
  public boolean maySpeakFor(String nodeId) {
    return nodes.contains(nodeId);
  }
}
