package io.kvfleet.events.codec;

import static java.util.Objects.requireNonNull;

import io.kvfleet.events.Envelope;
import io.kvfleet.events.Topics;
import io.kvfleet.events.trust.FleetKey;
import io.kvfleet.events.trust.SignedDocument;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Kafka value serializer: one CloudEvents structured-mode document per record, marked with the
 * {@code content-type: application/cloudevents+json} header (the CloudEvents Kafka binding) and
 * the event's type in {@code ce_type} ({@link TypeHeader}), so readers can skip without parsing.
 */
public final class EnvelopeSerializer implements Serializer<Envelope> {
  /** The record header that names the structured-mode content type. */
  public static final String CONTENT_TYPE_HEADER = "content-type";

  private static final byte[] CONTENT_TYPE = Topics.CONTENT_TYPE.getBytes(StandardCharsets.UTF_8);

  private final EventCodec codec;
  private final FleetKey key;

  /** A serializer with its own codec, for Kafka's no-argument instantiation; it signs nothing. */
  public EnvelopeSerializer() {
    this(new EventCodec());
  }

  /** A serializer sharing {@code codec}; it signs nothing. */
  public EnvelopeSerializer(EventCodec codec) {
    this.codec = requireNonNull(codec, "codec must not be null");
    this.key = null;
  }

  private EnvelopeSerializer(FleetKey key) {
    this.codec = new EventCodec();
    this.key = requireNonNull(key, "key must not be null");
  }

  /** A serializer that signs every document with {@code key} ({@link SignedDocument}). */
  public static EnvelopeSerializer signedBy(FleetKey key) {
    return new EnvelopeSerializer(key);
  }

  @Override
  public byte[] serialize(String topic, Envelope envelope) {
    if (envelope == null) {
      return null;
    }
    byte[] document = codec.encode(envelope);
    return key == null ? document : SignedDocument.sign(document, key);
  }

  @Override
  public byte[] serialize(String topic, Headers headers, Envelope envelope) {
    if (envelope != null && headers != null) {
      headers.remove(CONTENT_TYPE_HEADER);
      headers.add(CONTENT_TYPE_HEADER, CONTENT_TYPE.clone());
      TypeHeader.set(headers, envelope);
    }
    return serialize(topic, envelope);
  }
}
