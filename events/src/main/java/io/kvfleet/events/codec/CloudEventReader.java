package io.kvfleet.events.codec;

import static io.kvfleet.events.codec.CloudEvents.*;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.FleetEvent;
import java.io.IOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Pattern;

/** Reads one structured-mode document; throws {@link Malformation} only. */
final class CloudEventReader {
  private static final Pattern INTEGER = Pattern.compile("-?[0-9]{1,19}");
  private static final Pattern FOUR_DIGIT_YEAR = Pattern.compile("[0-9]{4}-");

  private final ObjectMapper mapper;
  private final EventData data;
  private final StreamingReader streaming;
  private final PlainEnvelope plain;

  CloudEventReader(ObjectMapper mapper) {
    this.mapper = mapper;
    this.data = new EventData(mapper);
    this.streaming = new StreamingReader(mapper);
    this.plain = new PlainEnvelope(mapper);
  }

  /**
   * The writer's own form scanned, the common case streamed; anything else read as a tree, which
   * gives every verdict.
   */
  Envelope read(byte[] raw) {
    Envelope scanned = plain.read(raw);
    return scanned != null ? scanned : streaming.read(raw).orElseGet(() -> readTree(raw));
  }

  /** The tree reader alone (the streaming reader's reference in tests). */
  Envelope readTree(byte[] raw) {
    JsonNode root = parse(raw);
    String specversion = text(root, SPECVERSION);
    if (!SPEC_VERSION.equals(specversion)) {
      throw Malformation.invalid(SPECVERSION, "is '" + specversion + "', only '1.0' is read");
    }
    String id = nonEmptyText(root, ID);
    nonEmptyText(root, SOURCE);
    String type = nonEmptyText(root, TYPE);
    Instant time = time(root);
    checkContentType(root);
    String producer = text(root, PRODUCER);
    long epoch = integer(root, EPOCH);
    long sequence = integer(root, SEQUENCE);
    long version = integer(root, SCHEMAVERSION);
    if (version < 1 || version > Integer.MAX_VALUE) {
      throw Malformation.invalid(SCHEMAVERSION, "must be a positive 32-bit integer: " + version);
    }
    FleetEvent event = data.read(type, (int) version, optionalText(root, SUBJECT), root.get(DATA));
    try {
      return new Envelope(id, producer, epoch, sequence, time, optionalText(root, CORRELATIONID), event);
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new Malformation("invalid envelope: " + e.getMessage());
    }
  }

  private JsonNode parse(byte[] raw) {
    JsonNode root;
    try {
      root = mapper.readTree(raw);
    } catch (JacksonException e) {
      throw new Malformation("not JSON: " + EventData.firstLine(e.getOriginalMessage()));
    } catch (IOException e) {
      throw new Malformation("not JSON: " + e.getMessage());
    } catch (NumberFormatException e) {
      // Valid JSON, but a number no BigDecimal holds (an exponent past 32 bits): Jackson throws this raw.
      throw new Malformation("a number out of range: " + EventData.firstLine(e.getMessage()));
    }
    if (root == null || root.isMissingNode()) {
      throw new Malformation("not JSON: no content");
    }
    if (!root.isObject()) {
      throw new Malformation("not a JSON object but " + root.getNodeType().name().toLowerCase(Locale.ROOT));
    }
    return root;
  }

  private static String text(JsonNode root, String attribute) {
    JsonNode node = root.get(attribute);
    if (node == null || node.isNull()) {
      throw Malformation.missing(attribute);
    }
    if (!node.isTextual()) {
      throw Malformation.invalid(attribute, "must be a string");
    }
    return node.textValue();
  }

  private static String nonEmptyText(JsonNode root, String attribute) {
    String value = text(root, attribute);
    if (value.isEmpty()) {
      throw Malformation.invalid(attribute, "must not be empty");
    }
    return value;
  }

  private static String optionalText(JsonNode root, String attribute) {
    JsonNode node = root.get(attribute);
    return node == null || node.isNull() ? "" : text(root, attribute);
  }

  /** A JSON integer, or a decimal string as kvfleet writes 64-bit attributes. */
  private static long integer(JsonNode root, String attribute) {
    JsonNode node = root.get(attribute);
    if (node == null || node.isNull()) {
      throw Malformation.missing(attribute);
    }
    if (node.isIntegralNumber() && node.canConvertToLong()) {
      return node.longValue();
    }
    if (node.isTextual() && INTEGER.matcher(node.textValue()).matches()) {
      try {
        return Long.parseLong(node.textValue());
      } catch (NumberFormatException e) {
        // Falls through to the error below: 19 digits may exceed a long.
      }
    }
    throw Malformation.invalid(attribute, "must be a 64-bit integer: " + node);
  }

  private static Instant time(JsonNode root) {
    String value = text(root, TIME);
    if (!FOUR_DIGIT_YEAR.matcher(value).lookingAt()) {
      // RFC 3339 years have four digits; ISO 8601's longer ones would overflow epoch milliseconds.
      throw Malformation.invalid(TIME, "is not an RFC 3339 timestamp: '" + value + "'");
    }
    try {
      return OffsetDateTime.parse(value.toUpperCase(Locale.ROOT), DateTimeFormatter.ISO_OFFSET_DATE_TIME)
          .toInstant();
    } catch (DateTimeParseException e) {
      throw Malformation.invalid(TIME, "is not an RFC 3339 timestamp: '" + value + "'");
    }
  }

  private static void checkContentType(JsonNode root) {
    String value = optionalText(root, DATACONTENTTYPE);
    String mediaType = value.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
    if (!value.isEmpty() && !mediaType.equals(DATA_CONTENT_TYPE)) {
      throw Malformation.invalid(DATACONTENTTYPE, "is '" + value + "', only " + DATA_CONTENT_TYPE + " is read");
    }
  }
}
