package io.kvfleet.control;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
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

  /** A value as indented JSON, for people and tools alike. */
  public static String pretty(Object value) {
    try {
      return MAPPER.writerWithDefaultPrettyPrinter().without(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
          .writeValueAsString(value);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
    }
  }
}
