package io.kvfleet.control.ops;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import io.kvfleet.events.replay.LogPosition;
import java.time.Duration;
import java.time.Instant;

/** The API's JSON: records as objects, times as RFC 3339 text, log positions as {@code topic-partition@offset}. */
final class OpsJson {
  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
      .addModule(new SimpleModule("kvfleet-ops")
          .addSerializer(Instant.class, ToStringSerializer.instance)
          .addSerializer(Duration.class, ToStringSerializer.instance)
          .addSerializer(LogPosition.class, ToStringSerializer.instance))
      .build();

  private OpsJson() {}

  static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
    }
  }
}
