package io.kvfleet.control;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/** JSON for control-plane messages (EventBus bodies, HTTP answers, {@code --json} output). */
public final class Json {
  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      // A length of 1.5 was registered as 1: a number that is not whole is refused, not truncated.
      .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
      .build();

  private Json() {}

  /** Writes a value (records included) as JSON text. */
  public static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
    }
  }

  /** Reads JSON text into a value of {@code type}; a clear exception when it does not fit. */
  public static <T> T read(String json, Class<T> type) {
    try {
      return MAPPER.readValue(json, type);
    } catch (JsonProcessingException e) {
      throw KvfleetException.badInput("not a valid " + type.getSimpleName() + ": " + e.getOriginalMessage());
    }
  }
}
