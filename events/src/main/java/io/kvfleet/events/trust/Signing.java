package io.kvfleet.events.trust;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * A process's part in the fleet's trust: the key it signs with (if any) and the trust file it verifies
 * others against (if any). {@link #off()} is the unauthenticated fleet of the demo and of tests without keys.
 */
public record Signing(Optional<FleetKey> key, Optional<TrustFile> trust) {
  public Signing {
    requireNonNull(key, "key must not be null (Optional.empty() for none)");
    requireNonNull(trust, "trust must not be null (Optional.empty() for none)");
  }

  /** Neither signing nor verifying. */
  public static Signing off() {
    return new Signing(Optional.empty(), Optional.empty());
  }

  /** Signing with {@code key} and verifying against {@code trust}. */
  public static Signing of(FleetKey key, TrustFile trust) {
    return new Signing(Optional.of(key), Optional.of(trust));
  }

  /** Whether this process signs what it writes. */
  public boolean signs() {
    return key.isPresent();
  }

  /** Whether this process verifies what it reads (and refuses what does not check). */
  public boolean verifies() {
    return trust.isPresent();
  }
}
