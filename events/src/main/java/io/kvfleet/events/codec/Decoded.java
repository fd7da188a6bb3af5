package io.kvfleet.events.codec;

import static java.util.Objects.requireNonNull;

import io.kvfleet.events.Envelope;
import java.util.Arrays;

/** What decoding one record gave: an envelope, or the reason it could not be read. */
public sealed interface Decoded {

  /**
   * A readable record; its data may be an {@link io.kvfleet.events.OpaqueEvent}.
   *
   * @param raw the record's bytes as read, for checking its signature (not copied: do not change them; empty
   *     for an event made in memory); equality ignores them
   */
  record Event(Envelope envelope, byte[] raw) implements Decoded {
    private static final byte[] NONE = new byte[0];

    public Event {
      requireNonNull(envelope, "envelope must not be null");
      requireNonNull(raw, "raw must not be null (use the one-argument constructor)");
    }

    /** An event made in memory, with no bytes to check. */
    public Event(Envelope envelope) {
      this(envelope, NONE);
    }

    /** Equal when the envelopes are. */
    @Override
    public boolean equals(Object other) {
      return other instanceof Event e && envelope.equals(e.envelope);
    }

    @Override
    public int hashCode() {
      return envelope.hashCode();
    }

    @Override
    public String toString() {
      return "Event[" + envelope + "]";
    }
  }

  /**
   * A record that is not a kvfleet event, kept with the reason and its bytes for a dead-letter
   * topic or a postmortem.
   *
   * @param reason what is wrong, e.g. {@code missing attribute 'id'}
   * @param raw the record's bytes (a copy; empty for a tombstone)
   */
  record Malformed(String reason, byte[] raw) implements Decoded {
    public Malformed {
      requireNonNull(reason, "reason must not be null");
      raw = requireNonNull(raw, "raw must not be null (use an empty array)").clone();
    }

    /** A copy of the record's bytes. */
    @Override
    public byte[] raw() {
      return raw.clone();
    }

    /** Equal when the reason and the bytes are equal. */
    @Override
    public boolean equals(Object other) {
      return other instanceof Malformed m && reason.equals(m.reason) && Arrays.equals(raw, m.raw);
    }

    @Override
    public int hashCode() {
      return 31 * reason.hashCode() + Arrays.hashCode(raw);
    }

    @Override
    public String toString() {
      return "Malformed[" + reason + ", " + raw.length + " bytes]";
    }
  }
}
