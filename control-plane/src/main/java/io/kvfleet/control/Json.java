package io.kvfleet.control;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.std.NumberDeserializers;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;

/** JSON for control-plane messages (EventBus bodies, HTTP answers, {@code --json} output). */
public final class Json {
  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      // A length of 1.5 was registered as 1: a number that is not whole is refused, not truncated; 4096.0
      // (what Python's json writes for a float) is 4096.
      .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
      .addModule(new SimpleModule("whole-numbers")
          .addDeserializer(Long.class, whole(new NumberDeserializers.LongDeserializer(Long.class, null), Long.class))
          .addDeserializer(long.class, whole(new NumberDeserializers.LongDeserializer(Long.TYPE, 0L), Long.class))
          .addDeserializer(Integer.class, whole(new NumberDeserializers.IntegerDeserializer(Integer.class, null), Integer.class))
          .addDeserializer(int.class, whole(new NumberDeserializers.IntegerDeserializer(Integer.TYPE, 0), Integer.class)))
      .build();

  /** {@code standard}, taking a float token only when it is a whole number that fits {@code type}. */
  private static <T> JsonDeserializer<T> whole(JsonDeserializer<T> standard, Class<T> type) {
    return new JsonDeserializer<>() {
      @Override
      public T deserialize(JsonParser p, DeserializationContext ctx) throws java.io.IOException {
        if (p.currentToken() != JsonToken.VALUE_NUMBER_FLOAT) {
          return standard.deserialize(p, ctx);
        }
        var value = p.getDecimalValue();
        try {
          long whole = value.longValueExact();
          return type.cast(type == Integer.class ? (Object) Math.toIntExact(whole) : (Object) whole);
        } catch (ArithmeticException e) {
          throw ctx.weirdNumberException(value, type, "not a whole number that fits");
        }
      }

      @Override
      public T getNullValue(DeserializationContext ctx) throws com.fasterxml.jackson.databind.JsonMappingException {
        return standard.getNullValue(ctx);
      }
    };
  }

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
