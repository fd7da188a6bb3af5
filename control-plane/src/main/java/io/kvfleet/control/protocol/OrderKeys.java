package io.kvfleet.control.protocol;

import static java.util.Objects.requireNonNull;

import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Map;
import java.util.Optional;

/**
 * The keys of dispatched orders: the coordinator keys an agent accepts orders signed by (from the
 * fleet trust file, role {@code coordinator}, by key id), and the one a coordinator signs with.
 * With no coordinator keys an agent runs unsigned orders (it says so loudly at start); with no
 * signing key a coordinator dispatches unsigned orders.
 *
 * @param coordinators key id to public key of every key bound to the role {@code coordinator}
 * @param signing this process's own key, if it signs
 */
public record OrderKeys(Map<String, PublicKey> coordinators, Optional<Signing> signing) {
  public OrderKeys {
    coordinators = Map.copyOf(requireNonNull(coordinators, "coordinators must not be null"));
    requireNonNull(signing, "signing must not be null");
  }

  /** A private key and the id the trust file names it by. */
  public record Signing(String keyId, PrivateKey key) {
    public Signing {
      requireNonNull(keyId, "keyId must not be null");
      requireNonNull(key, "key must not be null");
    }
  }

  /** No keys: orders are neither signed nor checked. */
  public static OrderKeys none() {
    return new OrderKeys(Map.of(), Optional.empty());
  }

  /** Whether an agent checks signatures: the trust file names at least one coordinator key. */
  public boolean checks() {
    return !coordinators.isEmpty();
  }
}
