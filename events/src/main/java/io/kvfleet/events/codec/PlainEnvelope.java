package io.kvfleet.events.codec;

import static io.kvfleet.events.codec.CloudEvents.CORRELATIONID;
import static io.kvfleet.events.codec.CloudEvents.DATA;
import static io.kvfleet.events.codec.CloudEvents.DATACONTENTTYPE;
import static io.kvfleet.events.codec.CloudEvents.DATA_CONTENT_TYPE;
import static io.kvfleet.events.codec.CloudEvents.EPOCH;
import static io.kvfleet.events.codec.CloudEvents.ID;
import static io.kvfleet.events.codec.CloudEvents.KEYID;
import static io.kvfleet.events.codec.CloudEvents.PRODUCER;
import static io.kvfleet.events.codec.CloudEvents.SCHEMAVERSION;
import static io.kvfleet.events.codec.CloudEvents.SEQUENCE;
import static io.kvfleet.events.codec.CloudEvents.SIGNATURE;
import static io.kvfleet.events.codec.CloudEvents.SOURCE;
import static io.kvfleet.events.codec.CloudEvents.SPECVERSION;
import static io.kvfleet.events.codec.CloudEvents.SPEC_VERSION;
import static io.kvfleet.events.codec.CloudEvents.SUBJECT;
import static io.kvfleet.events.codec.CloudEvents.TIME;
import static io.kvfleet.events.codec.CloudEvents.TYPE;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.EventType;
import io.kvfleet.events.FleetEvent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A document exactly as {@link EventCodec} writes it, read by a scan of its bytes instead of a
 * Jackson parser per event (a parser, its buffers and the binding's context were most of a
 * replay's allocation). Plain JSON only ({@link PlainJson}), each attribute once, no extension
 * but kvfleet's own, the data a record {@link PlainRecord} reads; the checks are
 * {@link StreamingReader}'s. Anything else gives null and the streaming reader decides, so every
 * document reads as it did ({@code PlainEnvelopeTest} holds the two equal).
 */
final class PlainEnvelope {
  private static final byte[][] NAMES = Stream.of(SPECVERSION, ID, SOURCE, TYPE, SUBJECT, TIME, DATACONTENTTYPE,
      PRODUCER, EPOCH, SEQUENCE, SCHEMAVERSION, CORRELATIONID, DATA, KEYID, SIGNATURE)
      .map(n -> n.getBytes(StandardCharsets.US_ASCII)).toArray(byte[][]::new);
  // Indices into NAMES.
  private static final int SPEC_AT = 0, ID_AT = 1, SOURCE_AT = 2, TYPE_AT = 3, SUBJECT_AT = 4, TIME_AT = 5,
      CONTENT_TYPE_AT = 6, PRODUCER_AT = 7, EPOCH_AT = 8, SEQUENCE_AT = 9, VERSION_AT = 10, CORRELATION_AT = 11,
      DATA_AT = 12, KEYID_AT = 13, SIGNATURE_AT = 14;

  private static final byte[] SPEC = SPEC_VERSION.getBytes(StandardCharsets.US_ASCII);
  private static final byte[] CONTENT_TYPE = DATA_CONTENT_TYPE.getBytes(StandardCharsets.US_ASCII);

  private final Timestamps timestamps = new Timestamps();
  /** The longest string Jackson's readers accept: a longer document is theirs to judge. */
  private final int maxString;
  /** Whether {@code mapper} binds as this scan assumes; if not, it scans nothing. */
  private final boolean on;

  /** {@code mapper} is the one the readers behind the scan use: its limits are the scan's. */
  PlainEnvelope(ObjectMapper mapper) {
    this.maxString = mapper.getFactory().streamReadConstraints().getMaxStringLength();
    this.on = bindsAsTheScanAssumes(mapper);
  }

  /**
   * The settings {@link PlainRecord} copies (those of {@link Json#mapper()}): no module, mix-in or
   * naming strategy, a null for a primitive or a missing component refused, a null for a reference
   * kept, no coercion, enums and names matched exactly, numbers of 18 digits readable.
   */
  static boolean bindsAsTheScanAssumes(ObjectMapper mapper) {
    var config = mapper.getDeserializationConfig();
    return mapper.getRegisteredModuleIds().isEmpty() && mapper.mixInCount() == 0
        && config.getPropertyNamingStrategy() == null
        && config.isEnabled(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        && config.isEnabled(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
        && !config.isEnabled(DeserializationFeature.FAIL_ON_NULL_CREATOR_PROPERTIES)
        && !config.isEnabled(DeserializationFeature.READ_ENUMS_USING_TO_STRING)
        && !config.isEnabled(DeserializationFeature.READ_UNKNOWN_ENUM_VALUES_AS_NULL)
        && !config.isEnabled(DeserializationFeature.READ_UNKNOWN_ENUM_VALUES_USING_DEFAULT_VALUE)
        && !config.isEnabled(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
        && !config.isEnabled(MapperFeature.ALLOW_COERCION_OF_SCALARS)
        && !config.isEnabled(MapperFeature.ACCEPT_CASE_INSENSITIVE_PROPERTIES)
        && !config.isEnabled(MapperFeature.ACCEPT_CASE_INSENSITIVE_ENUMS)
        && mapper.getFactory().streamReadConstraints().getMaxNumberLength() >= 19;
  }

  /** The envelope, or null when the streaming reader must decide. */
  Envelope read(byte[] raw) {
    // The scan takes printable ASCII only, a byte a character: a document no longer than the limit
    // holds no string past it. A longer one may, and Jackson refuses those (the scan skips some unread).
    if (!on || raw == null || raw.length > maxString) {
      return null;
    }
    try {
      return envelope(new PlainJson(raw));
    } catch (RuntimeException e) { // NOT_PLAIN, or an envelope's own check
      return null;
    }
  }

  private Envelope envelope(PlainJson in) {
    var text = new String[NAMES.length];
    text[CORRELATION_AT] = "";
    boolean spec = false, contentType = true; // no datacontenttype is the default, JSON
    int source = -1;
    long epoch = Long.MIN_VALUE, sequence = Long.MIN_VALUE;
    int version = 0;
    FleetEvent data = null;
    int seen = 0;
    in.expect('{');
    int next = 0;
    do {
      int i = in.name(NAMES, next);
      if ((seen & (1 << i)) != 0) {
        return null;
      }
      seen |= 1 << i;
      next = i + 1 == NAMES.length ? 0 : i + 1;
      switch (i) {
        // Only what the envelope keeps is made a string; the rest is checked in place.
        case SPEC_AT -> spec = in.skipString(SPEC) > 0;
        case SOURCE_AT -> source = in.skipString(null);
        // Read as the streaming reader reads them: not at all (a signature is checked on the record's bytes).
        case SUBJECT_AT, KEYID_AT, SIGNATURE_AT -> in.skipString(null);
        case CONTENT_TYPE_AT -> contentType = in.skipString(CONTENT_TYPE) >= 0;
        case EPOCH_AT -> epoch = in.quotedDecimal();
        case SEQUENCE_AT -> sequence = in.quotedDecimal();
        case VERSION_AT -> version = (int) in.integer(9);
        case DATA_AT -> data = data(in, text[TYPE_AT], version);
        default -> text[i] = in.string();
      }
    } while (in.skip(','));
    in.expect('}');
    if (!in.atEnd() || data == null || !spec || text[ID_AT] == null || text[ID_AT].isEmpty() || source <= 0
        || text[PRODUCER_AT] == null || !contentType) {
      return null;
    }
    Instant instant = text[TIME_AT] == null ? null : timestamps.parse(text[TIME_AT]);
    if (instant == null || epoch == Long.MIN_VALUE || sequence < 1) {
      return null;
    }
    return new Envelope(text[ID_AT], text[PRODUCER_AT], epoch, sequence, instant, text[CORRELATION_AT], data);
  }

  /** The data as {@link StreamingReader} binds it: version 1 of a type that has one, or the current version. */
  private static FleetEvent data(PlainJson in, String type, int version) {
    if (type == null || version < 1) {
      throw PlainJson.NOT_PLAIN;
    }
    Optional<EventType> known = EventType.byWireName(type);
    if (known.isEmpty() || version > known.get().schemaVersion()) {
      throw PlainJson.NOT_PLAIN;
    }
    var first = version == 1 ? VersionOne.of(known.get()) : Optional.<Class<? extends VersionOne.Data>>empty();
    if (first.isPresent()) {
      return PlainRecord.read(in, first.get()).current();
    }
    if (version < known.get().schemaVersion()) {
      throw PlainJson.NOT_PLAIN;
    }
    return PlainRecord.read(in, known.get().javaType());
  }
}
