package io.kvfleet.events.codec;

import io.kvfleet.events.Envelope;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.common.header.Headers;

/**
 * The CloudEvents {@code type} beside the structured document, in the Kafka binding's binary-mode
 * header {@code ce_type}, so a reader can skip a record it does not need without parsing it. The
 * header is a hint for skipping only: the document's own type is what is folded, and a record whose
 * header and document disagree is refused ({@link EnvelopeDeserializer}). A signature covers the
 * value, not the header, so a lying header can only make a reader skip a record it was not owed.
 */
public final class TypeHeader {
  /** The record header that names the event's CloudEvents type. */
  public static final String NAME = "ce_type";

  /** How the reason of a record whose header and document disagree begins. */
  public static final String MISMATCH = "type header mismatch";

  private TypeHeader() {}

  /** Sets the header to {@code envelope}'s type, replacing any before it. */
  static void set(Headers headers, Envelope envelope) {
    headers.remove(NAME);
    headers.add(NAME, envelope.type().getBytes(StandardCharsets.UTF_8));
  }

  /** The type the record's header names, if it has the header (records written before it have none). */
  public static Optional<String> of(Headers headers) {
    var header = headers == null ? null : headers.lastHeader(NAME);
    return header == null || header.value() == null
        ? Optional.empty()
        : Optional.of(new String(header.value(), StandardCharsets.UTF_8));
  }

  /**
   * Whether {@code decoded} was refused because its header and document disagree: such a record is
   * never answered either (its document may be another writer's genuine, signed request).
   */
  public static boolean mismatched(Decoded decoded) {
    return decoded instanceof Decoded.Malformed m && m.reason().startsWith(MISMATCH);
  }

  /**
   * {@code decoded}, or a refusal when {@code headerType} (the record's {@code ce_type}, if it had
   * one) names another type than its document: every reader that folds refuses the same records.
   */
  public static Decoded checked(Decoded decoded, Optional<String> headerType, byte[] data) {
    if (decoded instanceof Decoded.Event e && headerType.isPresent() && !headerType.get().equals(e.envelope().type())) {
      return new Decoded.Malformed(MISMATCH + ": ce_type says " + headerType.get() + " but the document is "
          + e.envelope().type(), data);
    }
    return decoded;
  }
}
