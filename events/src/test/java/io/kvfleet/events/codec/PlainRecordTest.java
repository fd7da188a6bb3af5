package io.kvfleet.events.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link PlainRecord} against Jackson's binding with the codec's settings, for shapes no event type
 * has yet: wherever the scan makes a record, Jackson makes the same one.
 */
class PlainRecordTest {
  private static final ObjectMapper MAPPER = Json.mapper();

  /** An interface whose accessor Jackson renames: the record inherits the rename. */
  interface Named {
    @JsonProperty("other")
    String name();
  }

  record Inherited(String name) implements Named {}

  /** A type with its own deserializer, whose null is a value. */
  @JsonDeserialize(using = Defaulted.Reader.class)
  record Defaulted(String value) {
    static final class Reader extends StdDeserializer<Defaulted> {
      Reader() {
        super(Defaulted.class);
      }

      @Override
      public Defaulted deserialize(JsonParser p, DeserializationContext context) throws IOException {
        return new Defaulted(p.getValueAsString());
      }

      @Override
      public Defaulted getNullValue(DeserializationContext context) {
        return new Defaulted("none");
      }
    }
  }

  record Holder(Defaulted inner) {}

  /** A record that holds itself: nesting has no bound but the document's. */
  record Tree(String name, List<Tree> children) {}

  @Test
  void leavesToJacksonATypeAnnotatedThroughItsInterface() {
    assertScannedOnlyAsJacksonReads("{\"name\":\"a\"}", Inherited.class);
  }

  @Test
  void leavesToJacksonANullOfATypeWithItsOwnDeserializer() {
    assertScannedOnlyAsJacksonReads("{\"inner\":null}", Holder.class);
  }

  @Test
  void leavesToJacksonNestingDeeperThanItsLimit() {
    assertScannedOnlyAsJacksonReads(tree(600), Tree.class); // 1,200 levels: Jackson allows 1,000
  }

  @Test
  void neverThrowsOnNestingDeeperThanTheStack() {
    String deep = tree(200_000);
    assertThatCode(() -> scan(deep, Tree.class)).doesNotThrowAnyException();
  }

  private static String tree(int depth) {
    return "{\"name\":\"n\",\"children\":[".repeat(depth) + "{\"name\":\"n\",\"children\":[]}" + "]}".repeat(depth);
  }

  private static <T> void assertScannedOnlyAsJacksonReads(String json, Class<T> type) {
    T scanned = scan(json, type);
    if (scanned != null) {
      assertThat(jackson(json, type)).as("Jackson's reading of what the scan read (%.60s)", json).isEqualTo(scanned);
    }
  }

  /** What the scan makes of {@code json}; null where it leaves it to Jackson. */
  private static <T> T scan(String json, Class<T> type) {
    var in = new PlainJson(json.getBytes(StandardCharsets.US_ASCII));
    try {
      T value = PlainRecord.read(in, type);
      return in.atEnd() ? value : null;
    } catch (RuntimeException e) { // NOT_PLAIN, or the record's own checks
      return null;
    }
  }

  /** What Jackson makes of {@code json}; null where it refuses it. */
  private static <T> T jackson(String json, Class<T> type) {
    try {
      return MAPPER.readValue(json, type);
    } catch (IOException e) {
      return null;
    }
  }
}
