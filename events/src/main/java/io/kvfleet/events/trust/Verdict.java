package io.kvfleet.events.trust;

import static java.util.Objects.requireNonNull;

/** Whether a reader may fold a record: its writer had the right to say it, or the reason it had not. */
public sealed interface Verdict {
  /** The record checks; {@code binding} is the key that signed it (none when verification is off). */
  record Trusted(java.util.Optional<KeyBinding> binding) implements Verdict {}

  /** The record must not be folded: {@code reason} is an {@code EVENT_*} code of {@code ReasonCodes}. */
  record Refused(String reason, String detail) implements Verdict {
    public Refused {
      requireNonNull(reason, "reason must not be null");
      requireNonNull(detail, "detail must not be null");
    }
  }
}
