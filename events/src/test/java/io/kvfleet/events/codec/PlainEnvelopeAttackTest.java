package io.kvfleet.events.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvfleet.events.Envelope;
import io.kvfleet.events.EventType;
import io.kvfleet.events.FleetEvent;
import io.kvfleet.events.Samples;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;

/**
 * An attacker's documents against the scan: the writer's own form with values, names and order
 * changed, members repeated, moved, renamed or dropped, and strings past Jackson's limits. Wherever
 * the scan gives an envelope, Jackson's readers (the streaming reader, then the tree) give the same
 * one, and the scan never throws.
 */
class PlainEnvelopeAttackTest {
  private final PlainEnvelope plain = new PlainEnvelope(Json.mapper());
  private final StreamingReader streaming = new StreamingReader(Json.mapper());
  private final CloudEventReader tree = new CloudEventReader(Json.mapper());

  private static final List<FleetEvent> EVENTS = Stream.concat(
      Stream.of(EventType.values()).flatMap(t -> Stream.of(Samples.of(t), Samples.newest(t))),
      Stream.of(new TransferCompleted("xfer-1", "prefill-0", 65_536, 182_000, "ucx/tcp", "3a69cc5f"),
          new TransferDispatched("xfer-1", "prefill-0", "coordinator-0", 4, null, "k", "s"))).toList();

  /** Raw JSON values of every kind a component or attribute might be handed. */
  private static final List<String> RAW = List.of("null", "true", "false", "0", "-0", "1", "-1", "01", "00", "2",
      "3", "5000", "999999999", "1000000000", "2147483647", "2147483648", "-2147483648", "-2147483649",
      "-999999999", "999999999999999999", "-999999999999999999", "1000000000000000000", "9223372036854775807",
      "9223372036854775808", "-9223372036854775808", "1.0", "1e2", "1E2", "0.5", "-0.0", "1e400", "{}", "[]",
      "[null]", "[1]", "[-1]", "[0]", "[\"x\"]", "[{}]", "[[]]", "[\"WRITE\"]", "[\"DRAM\"]", "[\"DRAM\",null]",
      "[1,]", "[,1]", "{\"\":1}", "nul", "tru", "-", "\"\"");

  private static final List<String> TEXTS = List.of("", "0", "1", "3", "17", "-0", "007", "-", "1.0", "1e2", " 1",
      "+1", "x", "WRITE", "READ", "write", "Write", "KV", "STATE", "AUX", "kv", "DRAM", "VRAM", "dram", "null",
      "true", "application/json", "application/json; charset=utf-8", "APPLICATION/JSON", "1.00",
      "2026-11-30T17:49:00Z", "2026-11-30T17:49:00.1Z", "2025-06-01T12:00:00.123456789Z",
      "2025-06-01T12:00:00.1234567891Z", "2025-06-01T12:00:60Z", "2025-02-30T12:00:00Z", "2025-02-29T12:00:00Z",
      "2024-02-29T12:00:00Z", "2025-06-01T24:00:00Z", "2025-06-01t12:00:00z", "2025-06-01T12:00:00+00:00",
      "2025-06-01T12:00:00.Z", "9999-12-31T23:59:59.999999999Z", "0000-01-01T00:00:00Z",
      "-999999999999999999", "999999999999999999", "1000000000000000000", "9223372036854775807",
      "-9223372036854775808", "-1", "/kvfleet/prefill-0", "x\u007f", "\u00e9", "\u0000", "\\", "\"", "a b",
      "FALLBACK_STAGED");

  private static final List<String> NAMES = names();

  @Property(tries = 20_000)
  void acceptsAnEditedDocumentOnlyWhereJacksonReadsTheSameEnvelope(@ForAll("events") FleetEvent event,
      @ForAll long seed, @ForAll("counts") int edits) {
    var random = new Random(seed);
    Doc root = Doc.of(Documents.json(Samples.envelope(event)));
    for (int i = 0; i < edits; i++) {
      edit(root, random);
    }
    String text = root.toString();
    if (random.nextInt(20) == 0) {
      text = List.of(text + " ", "\ufeff" + text, " " + text, text + "{}", text + "\u0000", text + "}",
          text.substring(0, text.length() - 1)).get(random.nextInt(7));
    }
    Statistics.collect(check(text.getBytes(StandardCharsets.UTF_8)) != null ? "scanned" : "left to Jackson");
  }

  @Property(tries = 5_000)
  void acceptsRetypedDataOnlyWhereJacksonReadsTheSameEnvelope(@ForAll("events") FleetEvent event,
      @ForAll EventType type, @ForAll("versions") String version) {
    Doc root = Doc.of(Documents.json(Samples.envelope(event)));
    var object = (Doc.Obj) root;
    object.set("type", new Doc.Str(type.wireName()));
    object.set("schemaversion", new Doc.Raw(version));
    Statistics.collect(check(root.toString().getBytes(StandardCharsets.UTF_8)) != null ? "scanned" : "left to Jackson");
  }

  @Test
  void leavesToJacksonAMemberBeforeWhatItDependsOn() {
    for (FleetEvent event : EVENTS) {
      for (String name : List.of("type", "schemaversion")) {
        var root = (Doc.Obj) Doc.of(Documents.json(Samples.envelope(event)));
        Doc value = root.remove(name);
        root.members.add(name.equals("type") ? root.members.size() : 0, Map.entry(name, value));
        check(root.toString().getBytes(StandardCharsets.UTF_8));
      }
    }
  }

  /**
   * Jackson refuses a string past {@code StreamReadConstraints}' 20,000,000 characters (its
   * default maxStringLength) on both of its paths; the scan leaves a document that long to them.
   */
  @Test
  void refusesAStringJacksonRefusesForItsLength() {
    String id = "e".repeat(20_000_001);
    var root = (Doc.Obj) Doc.of(Documents.json(Samples.envelope(Samples.of(EventType.PEER_HEARTBEAT))));
    root.set("id", new Doc.Str(id));
    byte[] bytes = root.toString().getBytes(StandardCharsets.US_ASCII);
    Decoded decoded = new EventCodec().decode(bytes);
    assertThat(decoded instanceof Decoded.Malformed).as("a 20,000,001-character id read as an event").isTrue();
  }

  @Test
  void leavesToJacksonASubjectItRefusesForItsLength() {
    var root = (Doc.Obj) Doc.of(Documents.json(Samples.envelope(Samples.of(EventType.PEER_HEARTBEAT))));
    root.set("subject", new Doc.Str("s".repeat(20_000_001)));
    byte[] bytes = root.toString().getBytes(StandardCharsets.US_ASCII);
    assertThat(jackson(bytes) != null).as("read by Jackson").isFalse();
    assertThat(plain.read(bytes) != null).as("scanned").isFalse(); // the scan skips the subject unread
  }

  @Test
  void leavesDeepNestingAndOddInputsToJacksonWithoutThrowing() {
    String written = new String(Documents.CODEC.encode(Samples.envelope(Samples.of(EventType.TRANSFER_REQUESTED))),
        StandardCharsets.US_ASCII);
    for (String value : List.of("[".repeat(200_000), "{\"a\":".repeat(100_000), "\"".repeat(100_001))) {
      assertThat(check(written.replace("\"transferId\":\"xfer-1\"", "\"transferId\":" + value)
          .getBytes(StandardCharsets.US_ASCII))).isNull();
    }
    for (byte[] bytes : List.of(new byte[0], new byte[] {'{'}, new byte[] {'{', '"'}, "{\"id\":".getBytes(),
        "{\"data\":{".getBytes(), written.substring(0, written.length() / 2).getBytes())) {
      assertThat(check(bytes)).isNull();
    }
    assertThat(plain.read(null)).isNull();
  }

  @Test
  void scansALongListAsJacksonReadsIt() {
    var root = (Doc.Obj) Doc.of(Documents.json(Samples.envelope(Samples.of(EventType.TRANSFER_REQUESTED))));
    var data = (Doc.Obj) root.get("data");
    var ranges = new ArrayList<Doc>();
    for (int i = 0; i < 200_000; i++) {
      ranges.add(((Doc.Arr) data.get("ranges")).elements.getFirst());
    }
    data.set("ranges", new Doc.Arr(ranges));
    byte[] bytes = root.toString().getBytes(StandardCharsets.US_ASCII);
    Envelope scanned = plain.read(bytes);
    assertThat(scanned).isNotNull().isEqualTo(jackson(bytes));
  }

  /** The scan's verdict against Jackson's: an envelope only where Jackson reads the same, and no throw. */
  private Envelope check(byte[] bytes) {
    Envelope scanned;
    try {
      scanned = plain.read(bytes);
    } catch (Throwable t) {
      fail("the scan threw on " + new String(bytes, StandardCharsets.UTF_8), t);
      return null;
    }
    if (scanned != null) {
      assertThat(jackson(bytes)).as(new String(bytes, StandardCharsets.UTF_8)).isEqualTo(scanned);
      assertThat(new EventCodec().decode(bytes)).isEqualTo(new Decoded.Event(scanned, bytes));
    }
    return scanned;
  }

  private Envelope jackson(byte[] bytes) {
    try {
      return streaming.read(bytes).orElseGet(() -> tree.readTree(bytes));
    } catch (Malformation e) {
      return null;
    }
  }

  private static void edit(Doc root, Random random) {
    var containers = new ArrayList<Doc>();
    root.collect(containers);
    Doc target = containers.get(random.nextInt(containers.size()));
    if (target instanceof Doc.Arr array) {
      List<Doc> elements = array.elements;
      int at = elements.isEmpty() ? 0 : random.nextInt(elements.size());
      switch (random.nextInt(5)) {
        case 0 -> { if (!elements.isEmpty()) elements.remove(at); }
        case 1 -> { if (!elements.isEmpty()) elements.add(at, elements.get(at).copy()); }
        case 2 -> elements.add(at, value(random, containers));
        case 3 -> { if (!elements.isEmpty()) elements.set(at, value(random, containers)); }
        default -> elements.clear();
      }
      return;
    }
    var object = (Doc.Obj) target;
    var members = object.members;
    int at = members.isEmpty() ? 0 : random.nextInt(members.size());
    switch (random.nextInt(7)) {
      case 0, 1 -> { if (!members.isEmpty()) members.set(at, Map.entry(members.get(at).getKey(), value(random, containers))); }
      case 2 -> { // repeated, same or other value
        if (!members.isEmpty()) {
          var member = members.get(at);
          members.add(random.nextInt(members.size() + 1),
              Map.entry(member.getKey(), random.nextBoolean() ? member.getValue().copy() : value(random, containers)));
        }
      }
      case 3 -> { if (!members.isEmpty()) members.remove(at); }
      case 4 -> { // moved
        if (!members.isEmpty()) {
          var member = members.remove(at);
          members.add(random.nextInt(members.size() + 1), member);
        }
      }
      case 5 -> { if (!members.isEmpty()) members.set(at, Map.entry(pick(NAMES, random), members.get(at).getValue())); }
      default -> members.add(random.nextInt(members.size() + 1), Map.entry(pick(NAMES, random), value(random, containers)));
    }
  }

  private static Doc value(Random random, List<Doc> containers) {
    return switch (random.nextInt(4)) {
      case 0 -> new Doc.Raw(pick(RAW, random));
      case 1 -> new Doc.Str(pick(TEXTS, random));
      case 2 -> new Doc.Str(EventType.values()[random.nextInt(EventType.values().length)].wireName());
      default -> containers.get(random.nextInt(containers.size())).copy();
    };
  }

  private static <T> T pick(List<T> list, Random random) {
    return list.get(random.nextInt(list.size()));
  }

  /** Every attribute and component name, the signed ones, and near misses. */
  private static List<String> names() {
    Set<String> names = new LinkedHashSet<>(CloudEvents.ATTRIBUTES);
    names.addAll(CloudEvents.SIGNED_ATTRIBUTES);
    names.addAll(List.of("Id", "ID", "id ", "", "dat", "datas", "zone", "x"));
    for (EventType type : EventType.values()) {
      components(type.javaType(), names, new LinkedHashSet<>());
    }
    return List.copyOf(names);
  }

  private static void components(Type type, Set<String> names, Set<Type> seen) {
    if (type instanceof ParameterizedType p) {
      components(p.getActualTypeArguments()[0], names, seen);
    } else if (type instanceof Class<?> c && c.isRecord() && seen.add(c)) {
      for (RecordComponent component : c.getRecordComponents()) {
        names.add(component.getName());
        components(component.getGenericType(), names, seen);
      }
    }
  }

  @Provide
  Arbitrary<FleetEvent> events() {
    return Arbitraries.of(EVENTS);
  }

  @Provide
  Arbitrary<Integer> counts() {
    return Arbitraries.integers().between(1, 4);
  }

  @Provide
  Arbitrary<String> versions() {
    return Arbitraries.of("0", "1", "2", "3", "-1", "\"1\"", "2147483648", "1.0", "null", "01");
  }

  /** A JSON value with its members in order, repeats allowed, written as the codec writes JSON. */
  private sealed interface Doc {
    Doc copy();

    default void collect(List<Doc> containers) {}

    static Doc of(JsonNode node) {
      if (node.isObject()) {
        var members = new ArrayList<Map.Entry<String, Doc>>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
          var field = it.next();
          members.add(Map.entry(field.getKey(), of(field.getValue())));
        }
        return new Obj(members);
      }
      if (node.isArray()) {
        var elements = new ArrayList<Doc>();
        node.forEach(e -> elements.add(of(e)));
        return new Arr(elements);
      }
      return node.isTextual() ? new Str(node.textValue()) : new Raw(node.toString());
    }

    record Obj(List<Map.Entry<String, Doc>> members) implements Doc {
      Doc get(String name) {
        return members.stream().filter(m -> m.getKey().equals(name)).findFirst().orElseThrow().getValue();
      }

      void set(String name, Doc value) {
        for (int i = 0; i < members.size(); i++) {
          if (members.get(i).getKey().equals(name)) {
            members.set(i, Map.entry(name, value));
            return;
          }
        }
        members.add(members.size() - 1, Map.entry(name, value));
      }

      Doc remove(String name) {
        for (int i = 0; i < members.size(); i++) {
          if (members.get(i).getKey().equals(name)) {
            return members.remove(i).getValue();
          }
        }
        throw new IllegalArgumentException(name);
      }

      @Override
      public Doc copy() {
        var copy = new ArrayList<Map.Entry<String, Doc>>();
        members.forEach(m -> copy.add(Map.entry(m.getKey(), m.getValue().copy())));
        return new Obj(copy);
      }

      @Override
      public void collect(List<Doc> containers) {
        containers.add(this);
        members.forEach(m -> m.getValue().collect(containers));
      }

      @Override
      public String toString() {
        var out = new StringBuilder("{");
        for (var member : members) {
          out.append(out.length() > 1 ? "," : "").append(new Str(member.getKey())).append(':').append(member.getValue());
        }
        return out.append('}').toString();
      }
    }

    record Arr(List<Doc> elements) implements Doc {
      @Override
      public Doc copy() {
        var copy = new ArrayList<Doc>();
        elements.forEach(e -> copy.add(e.copy()));
        return new Arr(copy);
      }

      @Override
      public void collect(List<Doc> containers) {
        containers.add(this);
        elements.forEach(e -> e.collect(containers));
      }

      @Override
      public String toString() {
        var out = new StringBuilder("[");
        for (Doc element : elements) {
          out.append(out.length() > 1 ? "," : "").append(element);
        }
        return out.append(']').toString();
      }
    }

    record Str(String text) implements Doc {
      @Override
      public Doc copy() {
        return this;
      }

      @Override
      public String toString() {
        var out = new StringBuilder(text.length() + 2).append('"');
        for (char c : text.toCharArray()) {
          if (c == '"' || c == '\\') {
            out.append('\\').append(c);
          } else if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
        return out.append('"').toString();
      }
    }

    record Raw(String token) implements Doc {
      @Override
      public Doc copy() {
        return this;
      }

      @Override
      public String toString() {
        return token;
      }
    }
  }
}
