package io.kvfleet.control.replay;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.kvfleet.events.EventType;
import io.kvfleet.events.Samples;
import io.kvfleet.events.codec.EventCodec;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link JsonCheck} against the reference, Jackson's strict parser reading every token of the bytes. */
class JsonCheckTest {
  private static final JsonFactory JACKSON = new JsonFactory();
  private static final EventCodec CODEC = new EventCodec();

  /** The reference: one JSON object, nothing after it, valid UTF-8, no line break (an export line holds it). */
  static boolean jacksonSaysOneObjectOnOneLine(byte[] bytes) {
    for (byte b : bytes) {
      if (b == '\n' || b == '\r') {
        return false;
      }
    }
    if (!Arrays.equals(new String(bytes, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8), bytes)) {
      return false;
    }
    try (JsonParser p = JACKSON.createParser(bytes)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return false;
      }
      while (p.nextToken() != null) {
        if (p.currentToken() == JsonToken.VALUE_STRING || p.currentToken() == JsonToken.FIELD_NAME) {
          p.getText(); // decodes the string, so its escapes are checked
        }
        if (p.currentToken().isNumeric()) {
          p.getNumberValue();
        }
        if (p.getParsingContext().inRoot()) {
          return p.nextToken() == null; // a second root value is not one object
        }
      }
      return false;
    } catch (Exception e) {
      return false;
    }
  }

  @ParameterizedTest
  @EnumSource(EventType.class)
  void acceptsEveryEncodedEvent(EventType type) {
    byte[] event = CODEC.encode(Samples.envelope(Samples.of(type)));

    assertThat(JsonCheck.isObject(event)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"{}", " {\"a\":[1,-0.5e+3,true,false,null,{}]} ", "{\"\\u00e9\\n\\\"\":\"é𝄞\"}",
      "{\"a\":{\"b\":[[],[{}]]}}"})
  void acceptsJsonObjects(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);

    assertThat(JsonCheck.isObject(bytes)).isTrue().isEqualTo(jacksonSaysOneObjectOnOneLine(bytes));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "[]", "1", "\"a\"", "{", "{}}", "{} {}", "{},", "{\"a\":1,}", "{\"a\"}", "{a:1}",
      "{\"a\":01}", "{\"a\":1.}", "{\"a\":-}", "{\"a\":.5}", "{\"a\":1e}", "{\"a\":tru}", "{\"a\":\"\\x\"}",
      "{\"a\":\"\\u12g4\"}", "{\"a\":\"x}", "{\"a\":1}\n", "{\n}", "{\"a\":\"\t\"}", "{\"a\":NaN}", "{} // x",
      "{}, \"topic\":\"injected\""})
  void refusesWhatIsNotOneObjectOnOneLine(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);

    assertThat(JsonCheck.isObject(bytes)).isFalse().isEqualTo(jacksonSaysOneObjectOnOneLine(bytes));
  }

  @ParameterizedTest
  @ValueSource(strings = {"c328", "e080af", "eda080", "f4908080", "ff", "c0af", "e282"})
  void refusesInvalidUtf8InAString(String hex) {
    byte[] inner = java.util.HexFormat.of().parseHex(hex);
    byte[] bytes = new byte[inner.length + 8];
    System.arraycopy("{\"a\":\"".getBytes(StandardCharsets.US_ASCII), 0, bytes, 0, 6);
    System.arraycopy(inner, 0, bytes, 6, inner.length);
    bytes[bytes.length - 2] = '"';
    bytes[bytes.length - 1] = '}';

    assertThat(JsonCheck.isObject(bytes)).isFalse().isEqualTo(jacksonSaysOneObjectOnOneLine(bytes));
  }

  /** Strings are scanned eight bytes at a time: every byte value at every place in a word must be judged as Jackson does. */
  @Test
  void agreesWithJacksonOnEveryByteAtEveryPlaceOfALongString() {
    byte[] plain = "{\"a\":\"0123456789abcdefghijklmnopqrstuv\"}".getBytes(StandardCharsets.US_ASCII);
    int mismatches = 0;
    for (int at = 6; at < plain.length - 2; at++) {
      for (int value = 0; value < 256; value++) {
        byte[] bytes = plain.clone();
        bytes[at] = (byte) value;
        mismatches += JsonCheck.isObject(bytes) == jacksonSaysOneObjectOnOneLine(bytes) ? 0 : 1;
      }
    }

    assertThat(mismatches).isZero();
    assertThat(JsonCheck.isObject(plain)).isTrue();
  }

  @Property(tries = 3_000)
  void agreesWithJacksonOnCorruptedEvents(@ForAll EventType type, @ForAll("positions") int position,
      @ForAll byte replacement) {
    byte[] bytes = CODEC.encode(Samples.envelope(Samples.of(type)));
    int at = position % bytes.length;
    byte[] flipped = bytes.clone();
    flipped[at] = replacement;
    byte[] cut = Arrays.copyOf(bytes, at);

    assertThat(JsonCheck.isObject(flipped)).isEqualTo(jacksonSaysOneObjectOnOneLine(flipped));
    assertThat(JsonCheck.isObject(cut)).isEqualTo(jacksonSaysOneObjectOnOneLine(cut));
  }

  @Property(tries = 5_000)
  void agreesWithJacksonOnJsonShapedNoise(@ForAll("jsonish") String text) {
    byte[] bytes = ("{" + text).getBytes(StandardCharsets.UTF_8);

    assertThat(JsonCheck.isObject(bytes)).isEqualTo(jacksonSaysOneObjectOnOneLine(bytes));
  }

  @Provide
  Arbitrary<Integer> positions() {
    return Arbitraries.integers().between(0, Integer.MAX_VALUE);
  }

  @Provide
  Arbitrary<String> jsonish() {
    return Arbitraries.strings().withChars("{}[]\":,0123456789.-+eE \ttfnulrsa\\/bu").ofMaxLength(40);
  }
}
