package io.kvfleet.events.state;

import io.kvfleet.events.Envelope;
import java.time.Instant;

/** The envelope being folded, and where its violations go. */
record Applying(Envelope envelope, Recent<Violation> violations) {

  /** The only clock of the fold: the envelope's time. */
  Instant time() {
    return envelope.time();
  }

  String eventId() {
    return envelope.id();
  }

  String producer() {
    return envelope.producer();
  }

  void violation(String message) {
    violations.add(new Violation(envelope.id(), envelope.type(), message));
  }
}
