package io.kvfleet.events.codec;

import static java.util.Objects.requireNonNull;

import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Kafka value deserializer. It never throws and never returns null, so one bad record cannot stop
 * a consumer: a tombstone or unreadable record comes back as {@link Decoded.Malformed}, and so does
 * a record whose {@code ce_type} header names another type than its document ({@link TypeHeader}).
 */
public final class EnvelopeDeserializer implements Deserializer<Decoded> {
  private final EventCodec codec;

  /** A deserializer with its own codec, for Kafka's no-argument instantiation. */
  public EnvelopeDeserializer() {
    this(new EventCodec());
  }

  /** A deserializer sharing {@code codec}. */
  public EnvelopeDeserializer(EventCodec codec) {
    this.codec = requireNonNull(codec, "codec must not be null");
  }

  @Override
  public Decoded deserialize(String topic, byte[] data) {
    if (data == null || data.length == 0) {
      return new Decoded.Malformed("empty record", new byte[0]);
    }
    try {
      return codec.decode(data);
    } catch (RuntimeException e) {
      // The codec is total by design; this keeps a consumer alive should a bug prove otherwise.
      return new Decoded.Malformed("unreadable record: " + e, data);
    }
  }

  /** As {@link #deserialize(String, byte[])}, refusing a record whose type header and document disagree. */
  @Override
  public Decoded deserialize(String topic, Headers headers, byte[] data) {
    return TypeHeader.checked(deserialize(topic, data), TypeHeader.of(headers), data);
  }
}
