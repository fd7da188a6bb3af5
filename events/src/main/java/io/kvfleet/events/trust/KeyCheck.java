package io.kvfleet.events.trust;

/** What checking a signature against the trust file found. */
public sealed interface KeyCheck {
  /** The signature is the named key's over these bytes. */
  record Verified(KeyBinding binding) implements KeyCheck {}

  /** The trust file lists no key with this id. */
  record UnknownKey(String keyId) implements KeyCheck {}

  /** The key is known, but the signature is not its signature over these bytes (or not a signature at all). */
  record BadSignature(String keyId) implements KeyCheck {}
}
