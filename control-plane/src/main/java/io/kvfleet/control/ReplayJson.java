package io.kvfleet.control;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import io.kvfleet.events.replay.LogPosition;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;

/**
 * JSON for export headers, snapshot headers and {@code --json} output: records by their
 * components, times as RFC 3339 text, durations as ISO-8601 ({@code PT1.5S}), log positions as
 * {@code topic-partition@offset}.
 */
public final class ReplayJson {
  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
      .addModule(new SimpleModule("kvfleet-time")
          .addSerializer(Instant.class, ToStringSerializer.instance)
          .addSerializer(Duration.class, ToStringSerializer.instance)
          .addSerializer(LogPosition.class, ToStringSerializer.instance)
          .addDeserializer(Instant.class, new JsonDeserializer<>() {
            @Override
            public Instant deserialize(JsonParser p, DeserializationContext ctx) throws IOException {
              return Instant.parse(p.getValueAsString());
            }
          }))
      .build();

  /** JSON's own escapes, and DEL too ({@link JsonWriteFeature#ESCAPE_NON_ASCII} escapes what is above it). */
  private static final CharacterEscapes ASCII_ONLY = new CharacterEscapes() {
    private final int[] ascii = asciiTable();

    private static int[] asciiTable() {
      int[] table = standardAsciiEscapesForJSON();
      table[0x7f] = ESCAPE_STANDARD;
      return table;
    }

    @Override
    public int[] getEscapeCodesForAscii() {
      return ascii;
    }

    @Override
    public SerializableString getEscapeSequence(int ch) {
      return null; // ESCAPE_STANDARD and non-ASCII: Jackson writes its six-character escape itself
    }
  };

  private ReplayJson() {}

  /** The mapper. */
  public static ObjectMapper mapper() {
    return MAPPER;
  }

  /** A value as one line of JSON. */
  public static String line(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
    }
  }

  /**
   * A value as indented JSON, for people and tools alike: printable ASCII only, every other character a
   * six-character escape, so a terminal (and {@code Terminal}, which escapes controls) prints it as it is and a
   * string a record carries neither acts on the terminal nor breaks the JSON a tool reads.
   */
  public static String pretty(Object value) {
    try {
      return MAPPER.writerWithDefaultPrettyPrinter().without(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
          .with(JsonWriteFeature.ESCAPE_NON_ASCII).with(ASCII_ONLY).writeValueAsString(value);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
    }
  }
}
