package io.kvfleet.events.codec;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

/** The one Jackson configuration of the wire format. */
final class Json {
  private Json() {}

  /**
   * Records map by their component names. Readers ignore unknown fields (forward compatibility)
   * but are strict about what they do read: every component present, no nulls for numbers, no
   * silent float or string coercion, no duplicate keys. Decimal numbers stay exact so opaque data
   * is kept as written.
   */
  static JsonMapper mapper() {
    return JsonMapper.builder()
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
        .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
        .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .build();
  }
}
