package io.kvfleet.events.codec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.EventType;
import io.kvfleet.events.Samples;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random repeated names and random unknown structures, anywhere in a document, against both readers:
 * the streaming reader accepts a document only where the tree reader reads the same envelope.
 */
class UniqueNamesPropertyTest {
  private final StreamingReader streaming = new StreamingReader(Json.mapper());
  private final CloudEventReader tree = new CloudEventReader(Json.mapper());

  /** Extra structures that may sit anywhere: unknown fields, nested, with and without repeats. */
  private static final List<String> EXTRAS = List.of(
      "{}", "[]", "[[{}]]", "{\"x\":1}", "{\"x\":{\"x\":{\"x\":[1,{\"x\":2}]}}}",
      "[{\"a\":1},{\"a\":1}]", "{\"a\":1,\"\\u0061\":2}", "{\"k\":[{\"k\":1,\"j\":2,\"k\":3}]}",
      "null", "1e400", "-0", "\"\\u0000\"", "{\"\\ud83d\\ude00\":1,\"\uD83D\uDE00\":2}",
      "[1,2,{\"b\":{\"c\":[],\"c\":{}}}]", "true", "123456789012345678901234567890");

  @Property(tries = 3000)
  void refusesARepeatedNameInAnyObjectOnBothPaths(@ForAll EventType type, @ForAll boolean newest,
      @ForAll("indices") int objectIndex, @ForAll("indices") int fieldIndex, @ForAll boolean escape,
      @ForAll("extras") String value, @ForAll boolean atEnd) {
    Envelope envelope = Samples.envelope(newest ? Samples.newest(type) : Samples.of(type));
    ObjectNode root = Documents.json(envelope);
    var field = field(root, objectIndex, fieldIndex);
    if (field.isEmpty()) {
      return;
    }
    ObjectNode target = field.get().object();
    String name = field.get().name();
    byte[] bytes = write(root, target, name, escape, value, atEnd).getBytes(StandardCharsets.UTF_8);

    assertThat(streaming.read(bytes)).as(new String(bytes, StandardCharsets.UTF_8)).isEmpty();
    assertThat(new EventCodec().decode(bytes)).as(new String(bytes, StandardCharsets.UTF_8))
        .isInstanceOfSatisfying(Decoded.Malformed.class, m -> assertThat(m.reason()).contains("Duplicate field"));
  }

  @Property(tries = 3000)
  void acceptsAnUnknownStructureOnlyWhereTheTreeReaderReadsTheSameEnvelope(@ForAll EventType type,
      @ForAll boolean newest, @ForAll("indices") int objectIndex, @ForAll("extras") String value,
      @ForAll boolean atEnd, @ForAll boolean versionOne) {
    Envelope envelope = Samples.envelope(newest ? Samples.newest(type) : Samples.of(type));
    ObjectNode root = Documents.json(envelope);
    if (versionOne) {
      root.put("schemaversion", 1);
    }
    List<ObjectNode> objects = new ArrayList<>();
    collect(root, objects);
    ObjectNode target = objects.get(objectIndex % objects.size());
    byte[] bytes = write(root, target, "zz", false, value, atEnd).getBytes(StandardCharsets.UTF_8);

    Optional<Envelope> streamed = streaming.read(bytes);
    Decoded decoded = new EventCodec().decode(bytes);
    if (streamed.isPresent()) {
      assertThat(decoded).as(new String(bytes, StandardCharsets.UTF_8)).isEqualTo(new Decoded.Event(streamed.get()));
      assertThat(tree.readTree(bytes)).isEqualTo(streamed.get());
    }
  }

  @Provide
  Arbitrary<Integer> indices() {
    return Arbitraries.integers().between(0, 1000);
  }

  @Provide
  Arbitrary<String> extras() {
    return Arbitraries.of(EXTRAS);
  }

  /** An object in a document and one of its names. */
  private record Field(ObjectNode object, String name) {}

  /** One of the objects in {@code from} (itself included) and one of its names; empty for an empty object. */
  private static Optional<Field> field(JsonNode from, int objectIndex, int fieldIndex) {
    List<ObjectNode> objects = new ArrayList<>();
    collect(from, objects);
    ObjectNode target = objects.get(objectIndex % objects.size());
    List<String> names = new ArrayList<>();
    target.fieldNames().forEachRemaining(names::add);
    return names.isEmpty() ? Optional.empty() : Optional.of(new Field(target, names.get(fieldIndex % names.size())));
  }

  private static void collect(JsonNode node, List<ObjectNode> into) {
    if (node instanceof ObjectNode object) {
      into.add(object);
    }
    node.elements().forEachRemaining(child -> collect(child, into));
  }

  /** The document, with {@code name} (escaped or not) added to {@code target} with {@code value}. */
  private static String write(JsonNode node, ObjectNode target, String name, boolean escape, String value,
      boolean atEnd) {
    var out = new StringBuilder();
    write(node, target, name, escape, value, atEnd, out);
    return out.toString();
  }

  private static void write(JsonNode node, ObjectNode target, String name, boolean escape, String value,
      boolean atEnd, StringBuilder out) {
    if (node.isObject()) {
      out.append('{');
      boolean first = true;
      String extra = (escape ? "\"\\u" + String.format("%04x", (int) name.charAt(0)) + name.substring(1)
          : "\"" + name) + "\":" + value;
      if (node == target && !atEnd) {
        out.append(extra);
        first = false;
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        var e = it.next();
        out.append(first ? "" : ",").append(com.fasterxml.jackson.core.io.JsonStringEncoder.getInstance()
            .quoteAsString(e.getKey()) instanceof char[] c ? "\"" + new String(c) + "\"" : "").append(':');
        write(e.getValue(), target, name, escape, value, atEnd, out);
        first = false;
      }
      if (node == target && atEnd) {
        out.append(first ? "" : ",").append(extra);
      }
      out.append('}');
    } else if (node.isArray()) {
      out.append('[');
      for (int i = 0; i < node.size(); i++) {
        out.append(i == 0 ? "" : ",");
        write(node.get(i), target, name, escape, value, atEnd, out);
      }
      out.append(']');
    } else {
      out.append(node.toString());
    }
  }

  private static final List<String> VALUES = List.of("null", "\"\"", "0", "-1", "1", "1.0", "1e2", "-0", "true", "false",
      "\"x\"", "\"1\"", "[]", "{}", "[1]", "[null]", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
      "2147483648", "\"WRITE\"", "\"write\"", "0.0", "[{\"sourceOffset\":0,\"destinationOffset\":0,\"length\":1}]",
      "[{\"sourceOffset\":0,\"destinationOffset\":0,\"length\":1.0}]", "\"\\u0057RITE\"");

  /** Every field of version-1 data (and of its ranges) given an odd value: streamed only where the tree agrees. */
  @Property(tries = 6000)
  void bindsVersionOneDataOnlyWhereTheTreeReaderReadsTheSame(
      @ForAll("versionOneTypes") EventType type, @ForAll("indices") int objectIndex, @ForAll("indices") int fieldIndex,
      @ForAll("values") String value) {
    Envelope envelope = Samples.envelope(Samples.of(type));
    ObjectNode root = Documents.json(envelope);
    root.put("schemaversion", 1);
    var field = field(root.get("data"), objectIndex, fieldIndex);
    if (field.isEmpty()) {
      return;
    }
    ObjectNode target = field.get().object();
    String name = field.get().name();
    String text = write(root, target, name, false, value, true);
    // replace, not repeat: drop the original occurrence of name in target by writing target without it
    target.remove(name);
    text = write(root, target, name, false, value, true);
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);

    Optional<Envelope> streamed = streaming.read(bytes);
    if (streamed.isPresent()) {
      assertThat(new EventCodec().decode(bytes)).as(text).isEqualTo(new Decoded.Event(streamed.get()));
      assertThat(tree.readTree(bytes)).as(text).isEqualTo(streamed.get());
    }
  }

  @Provide
  Arbitrary<EventType> versionOneTypes() {
    return Arbitraries.of(EventType.TRANSFER_REQUESTED, EventType.TRANSFER_COMPLETED, EventType.TRANSFER_DISPATCHED);
  }

  @Provide
  Arbitrary<String> values() {
    return Arbitraries.of(VALUES);
  }

  /** Every field of any type's data given an odd value, numbers in string fields included. */
  @Property(tries = 6000)
  void bindsAnyDataOnlyWhereTheTreeReaderReadsTheSame(@ForAll EventType type, @ForAll boolean newest,
      @ForAll("indices") int objectIndex, @ForAll("indices") int fieldIndex, @ForAll("values") String value) {
    Envelope envelope = Samples.envelope(newest ? Samples.newest(type) : Samples.of(type));
    ObjectNode root = Documents.json(envelope);
    var field = field(root.get("data"), objectIndex, fieldIndex);
    if (field.isEmpty()) {
      return;
    }
    ObjectNode target = field.get().object();
    String name = field.get().name();
    target.remove(name);
    String text = write(root, target, name, false, value, true);
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);

    Optional<Envelope> streamed = streaming.read(bytes);
    if (streamed.isPresent()) {
      assertThat(tree.readTree(bytes)).as(text).isEqualTo(streamed.get());
    }
  }
}
