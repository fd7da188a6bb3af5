package io.kvfleet.control.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.core.JsonFactory;
import io.kvfleet.events.Topics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The scan of an export line against Jackson's reading of it: records the writer writes, and the
 * same lines with a byte changed. Wherever the scan gives a record, Jackson reads the same one.
 */
class LineScanTest {
  private static final JsonFactory JSON = new JsonFactory();
  private static final byte[] INTERESTING = {'"', '\\', ' ', ',', ':', '{', '}', '[', ']', '0', '1', '-', '.', 'e',
      'n', 'u', 'l', 'x', 0x7f, 0x1f, (byte) 0xc3, (byte) 0xa9};

  @Property(tries = 300)
  void readsEveryLineTheWriterWritesAsJacksonDoes(@ForAll("recordLists") List<StoredRecord> records) {
    var lines = written(records);
    assertThat(lines).hasSameSizeAs(records);
    var scan = new LineScan();
    for (int i = 0; i < lines.size(); i++) {
      var line = lines.get(i);
      var scanned = scan.read(line);
      if (plain(records.get(i))) {
        assertThat(scanned).as("a record of plain text is read without the parser").isNotNull();
      }
      if (scanned != null) {
        assertSame(scanned, jackson(line));
        assertSame(scanned, records.get(i));
      }
    }
  }

  @Property(tries = 3000)
  void readsAChangedLineOnlyAsJacksonDoes(@ForAll("records") StoredRecord record, @ForAll("fractions") double where,
      @ForAll("bytes") byte to, @ForAll boolean insert) {
    var line = written(List.of(record)).getFirst();
    byte[] b = Arrays.copyOfRange(line.bytes(), line.offset(), line.offset() + line.length());
    int at = (int) (where * b.length);
    byte[] changed = insert ? insertAt(b, Math.min(at, b.length), to) : b;
    if (!insert) {
      changed[Math.min(at, b.length - 1)] = to;
    }
    var mutated = new Lines.Line(changed, 0, changed.length);
    var scanned = new LineScan().read(mutated);
    if (scanned != null) {
      assertThatCode(() -> jackson(mutated)).as("Jackson reads what the scan read: %s",
          new String(changed, StandardCharsets.UTF_8)).doesNotThrowAnyException();
      assertSame(scanned, jackson(mutated));
    }
  }

  @Example
  void readsATombstoneOnlyWhenNothingFollowsIt() {
    String tombstone = "{\"topic\":\"kvfleet.nodes\",\"partition\":0,\"offset\":1,\"timestamp\":2,\"key\":null,"
        + "\"headers\":[],\"value\":null}";
    var alone = line(tombstone);
    var followed = line(tombstone + "{\"a\":1}}");

    assertThat(new LineScan().read(alone)).isNotNull().satisfies(r -> assertSame(r, jackson(alone)));
    assertThat(jackson(followed).value()).as("Jackson stops at the closing brace").isNull();
    assertThat(new LineScan().read(followed)).as("left to Jackson").isNull();
  }

  @Example
  void readsBackAKeyLongerThanJacksonsDefaultLimitOnBothPaths() throws IOException {
    byte[] key = new byte[20_000_001];
    Arrays.fill(key, (byte) 'k');
    var plain = new StoredRecord(Topics.NODES, 0, 1, 2, key, List.of(), "{}".getBytes(StandardCharsets.US_ASCII));
    var escaped = new StoredRecord(Topics.NODES, 0, 2, 3, key,
        List.of(new StoredRecord.Header("h", "\u00e9".getBytes(StandardCharsets.UTF_8))), plain.value());
    Path file = Files.createTempFile("linescan", ".jsonl.zst");
    try {
      try (var writer = ExportWriter.create(file, header())) {
        writer.write(plain);
        writer.write(escaped);
        writer.finish();
      }
      try (var reader = ExportReader.open(file)) {
        assertSame(reader.next(), plain);
        assertSame(reader.next(), escaped);
        assertThat(reader.next()).isNull();
      }
    } finally {
      Files.delete(file);
    }
  }

  private static Lines.Line line(String text) {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    return new Lines.Line(b, 0, b.length);
  }

  private static boolean plain(StoredRecord r) {
    return plainText(r.topic().getBytes(StandardCharsets.UTF_8)) && r.timestamp() >= 0
        && (r.key() == null || plainText(r.key()))
        && r.headers().stream().allMatch(h -> plainText(h.name().getBytes(StandardCharsets.UTF_8))
            && (h.value() == null || plainText(h.value())))
        && r.value() != null && JsonCheck.isObject(r.value()); // a tombstone's line says "malformed"
  }

  private static boolean plainText(byte[] b) {
    for (byte c : b) {
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
        return false;
      }
    }
    return true;
  }

  private static StoredRecord jackson(Lines.Line line) {
    try (var p = JSON.createParser(line.bytes(), line.offset(), line.length())) {
      return ExportReader.record(p, line);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void assertSame(StoredRecord actual, StoredRecord expected) {
    assertThat(actual.topic()).isEqualTo(expected.topic());
    assertThat(actual.partition()).isEqualTo(expected.partition());
    assertThat(actual.offset()).isEqualTo(expected.offset());
    assertThat(actual.timestamp()).isEqualTo(expected.timestamp());
    assertThat(actual.key()).isEqualTo(expected.key());
    assertThat(actual.value()).isEqualTo(expected.value());
    assertThat(actual.headers()).hasSameSizeAs(expected.headers());
    for (int i = 0; i < actual.headers().size(); i++) {
      assertThat(actual.headers().get(i).name()).isEqualTo(expected.headers().get(i).name());
      assertThat(actual.headers().get(i).value()).isEqualTo(expected.headers().get(i).value());
    }
  }

  /** The lines an export of {@code records} holds, after its header line. */
  private static List<Lines.Line> written(List<StoredRecord> records) {
    try {
      Path file = Files.createTempFile("linescan", ".jsonl.gz");
      try {
        try (var writer = ExportWriter.create(file, header())) {
          for (var r : records) {
            writer.write(r);
          }
          writer.finish();
        }
        var lines = new Lines(new GZIPInputStream(Files.newInputStream(file)));
        lines.next();
        var all = new ArrayList<Lines.Line>();
        for (var l = lines.next(); l != null; l = lines.next()) {
          // Each line inside bytes before and after it, as a line sits in the reader's buffer.
          byte[] inside = new byte[l.length() + 10];
          Arrays.fill(inside, (byte) '}');
          System.arraycopy(l.bytes(), l.offset(), inside, 5, l.length());
          all.add(new Lines.Line(inside, 5, l.length()));
        }
        return all;
      } finally {
        Files.delete(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static ExportHeader header() {
    return new ExportHeader(ExportHeader.FORMAT, ExportHeader.VERSION, Instant.parse("2025-06-01T12:00:00Z"),
        "127.0.0.1:9092", Topics.ALL, ExportHeader.ORDER, "none", new TreeMap<>(Map.of(Topics.NODES + "-0", 0L)),
        new TreeMap<>(Map.of(Topics.NODES + "-0", 5L)));
  }

  private static byte[] insertAt(byte[] b, int at, byte c) {
    byte[] out = new byte[b.length + 1];
    System.arraycopy(b, 0, out, 0, at);
    out[at] = c;
    System.arraycopy(b, at, out, at + 1, b.length - at);
    return out;
  }

  @Provide
  Arbitrary<StoredRecord> records() {
    Arbitrary<String> topics = Arbitraries.of(Topics.NODES, Topics.TRANSFERS, "t\u00e9", "a\"b", "a\\b", "tab\t");
    Arbitrary<byte[]> texts = Arbitraries.oneOf(
        Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(12).map(s -> s.getBytes(StandardCharsets.UTF_8)),
        Arbitraries.strings().ofMaxLength(6).map(s -> s.getBytes(StandardCharsets.UTF_8)),
        Arbitraries.bytes().array(byte[].class).ofMaxSize(6));
    Arbitrary<StoredRecord.Header> header = Combinators.combine(
        Arbitraries.of("content-type", "ce_type", "n\u00e4me", "q\""), texts.injectNull(0.2))
        .as(StoredRecord.Header::new);
    Arbitrary<byte[]> values = Arbitraries.of("{}", "{\"a\":1}", "{\"s\":\"}\\\"{\",\"n\":[1,{\"x\":null}]}",
        "{\"a\":\"\u00e9\"}", "{unclosed", "[1]", "not json").map(s -> s.getBytes(StandardCharsets.UTF_8));
    return Combinators.combine(topics, Arbitraries.integers().between(0, Integer.MAX_VALUE),
        Arbitraries.longs().between(0, Long.MAX_VALUE), Arbitraries.longs().between(-1, Long.MAX_VALUE),
        texts.injectNull(0.2), header.list().ofMaxSize(3), values.injectNull(0.1))
        .as(StoredRecord::new);
  }

  @Provide
  Arbitrary<List<StoredRecord>> recordLists() {
    return records().list().ofMinSize(1).ofMaxSize(12);
  }

  @Provide
  Arbitrary<Double> fractions() {
    return Arbitraries.doubles().between(0, 1);
  }

  @Provide
  Arbitrary<Byte> bytes() {
    var boxed = new ArrayList<Byte>();
    for (byte b : INTERESTING) {
      boxed.add(b);
    }
    return Arbitraries.of(boxed);
  }
}
