package io.kvfleet.events.codec;

import static io.kvfleet.events.codec.CloudEvents.*;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.EventType;
import io.kvfleet.events.FleetEvent;
import java.io.IOException;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * The common case in one streaming pass: a well-formed document of a known type whose {@code
 * type} and {@code schemaversion} come before its {@code data}, as kvfleet writes them. The data
 * binds straight from the stream to its record, without a tree. Anything unusual (a missing or
 * oddly typed attribute, an unknown type, a binding error, a name repeated in an object, bad JSON)
 * gives empty, and {@link CloudEventReader}'s tree reader decides, so both readers accept the same
 * documents with the same result and every error message comes from one place.
 */
final class StreamingReader {
  private final ObjectMapper mapper;
  private final Map<EventType, ObjectReader> readers = new EnumMap<>(EventType.class);
  private final Map<EventType, ObjectReader> versionOne = new EnumMap<>(EventType.class);
  private final Timestamps timestamps = new Timestamps();
  private final ObjectReader trees;

  StreamingReader(ObjectMapper strict) {
    // Its parsers check for repeated names themselves (UniqueNames), more cheaply than Jackson's check.
    this.mapper = strict.copy();
    mapper.getFactory().disable(StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature());
    // A number where a string belongs binds as written from the stream but normalised from a tree
    // ("1e2" against "1E+2"): refused here, so that the tree reader decides.
    mapper.coercionConfigFor(LogicalType.Textual)
        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
    this.trees = mapper.readerFor(JsonNode.class).without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    for (EventType type : EventType.values()) {
      // The data is one value inside the document: what follows it is the envelope's, not trailing.
      readers.put(type, mapper.readerFor(type.javaType())
          .without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS));
      VersionOne.of(type).ifPresent(older -> versionOne.put(type, mapper.readerFor(older)
          .without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)));
    }
  }

  Optional<Envelope> read(byte[] raw) {
    try (JsonParser p = new UniqueNames(mapper.createParser(raw))) {
      return Optional.ofNullable(envelope(p));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** The envelope, or null when the tree reader must decide. */
  private Envelope envelope(JsonParser p) throws IOException {
    if (p.nextToken() != JsonToken.START_OBJECT) {
      return null;
    }
    String specversion = null, id = null, source = null, type = null, subject = "", time = null;
    String contentType = "", producer = null, epoch = null, sequence = null, correlationId = "";
    int version = 0;
    FleetEvent data = null;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken token = p.nextToken();
      if (field.equals(DATA)) {
        data = data(p, token, type, version);
        if (data == null) {
          return null;
        }
        continue;
      }
      if (field.equals(SCHEMAVERSION)) {
        if (token != JsonToken.VALUE_NUMBER_INT || p.getNumberType() != JsonParser.NumberType.INT) {
          return null;
        }
        version = p.getIntValue();
        continue;
      }
      if (token != JsonToken.VALUE_STRING) {
        // Null, a number or a structure where a string belongs, or an unknown extension.
        if (token.isStructStart() || token == JsonToken.VALUE_NULL || CloudEvents.ATTRIBUTES.contains(field)) {
          return null;
        }
        continue;
      }
      String text = p.getText();
      switch (field) {
        case SPECVERSION -> specversion = text;
        case ID -> id = text;
        case SOURCE -> source = text;
        case TYPE -> type = text;
        case SUBJECT -> subject = text;
        case TIME -> time = text;
        case DATACONTENTTYPE -> contentType = text;
        case PRODUCER -> producer = text;
        case EPOCH -> epoch = text;
        case SEQUENCE -> sequence = text;
        case CORRELATIONID -> correlationId = text;
        default -> { } // an extension this build does not read
      }
    }
    if (p.nextToken() != null || data == null || !SPEC_VERSION.equals(specversion) || id == null
        || id.isEmpty() || source == null || source.isEmpty() || producer == null
        || !(contentType.isEmpty() || contentType.equals(DATA_CONTENT_TYPE))) {
      return null;
    }
    Instant instant = time == null ? null : timestamps.parse(time);
    long epochValue = decimal(epoch);
    long sequenceValue = decimal(sequence);
    if (instant == null || epochValue == Long.MIN_VALUE || sequenceValue < 1) {
      return null;
    }
    return new Envelope(id, producer, epochValue, sequenceValue, instant, correlationId, data);
  }

  /** The data bound to its record, or null when the type, its version or the token is unusual. */
  private FleetEvent data(JsonParser p, JsonToken token, String type, int version) throws IOException {
    if (type == null || version < 1 || token != JsonToken.START_OBJECT) {
      return null;
    }
    Optional<EventType> known = EventType.byWireName(type);
    if (known.isEmpty() || version > known.get().schemaVersion()) {
      return null;
    }
    ObjectReader first = version == 1 ? versionOne.get(known.get()) : null;
    if (first != null) {
      return first.<VersionOne.Data>readValue(p).current();
    }
    if (version < known.get().schemaVersion()) {
      // Only this event's data as a tree: the fields later versions added get their defaults.
      JsonNode older = trees.readValue(p);
      return mapper.treeToValue(OlderVersions.upgrade(known.get(), version, older), known.get().javaType());
    }
    return readers.get(known.get()).readValue(p);
  }

  /** A plain decimal long as kvfleet writes 64-bit attributes; {@code Long.MIN_VALUE} otherwise. */
  private static long decimal(String text) {
    if (text == null || text.isEmpty() || text.length() > 19) {
      return Long.MIN_VALUE;
    }
    long value = 0;
    int start = text.charAt(0) == '-' ? 1 : 0;
    if (start == text.length() || text.length() - start > 18) {
      return Long.MIN_VALUE; // 19 digits may overflow: the tree reader decides
    }
    for (int i = start; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return Long.MIN_VALUE;
      }
      value = value * 10 + (c - '0');
    }
    return start == 1 ? -value : value;
  }
}
