package io.kvfleet.control.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.events.EventType;
import io.kvfleet.events.Samples;
import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.codec.EventCodec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import io.kvfleet.control.KvfleetException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ExportFileTest {
  private static final EventCodec CODEC = new EventCodec();
  @TempDir Path dir;

  private static ExportHeader header() {
    return header("none");
  }

  private static ExportHeader header(String filter) {
    return new ExportHeader(ExportHeader.FORMAT, ExportHeader.VERSION, Instant.parse("2025-06-01T12:00:00Z"),
        "127.0.0.1:9092", Topics.ALL, ExportHeader.ORDER, filter, new java.util.TreeMap<>(Map.of("kvfleet.nodes-0", 0L)),
        new java.util.TreeMap<>(Map.of("kvfleet.nodes-0", 5L)));
  }

  private static StoredRecord record(long offset, byte[] key, byte[] value) {
    return new StoredRecord(Topics.NODES, 0, offset, 1_748_779_200_000L + offset, key,
        List.of(new StoredRecord.Header("content-type", Topics.CONTENT_TYPE.getBytes(StandardCharsets.UTF_8))), value);
  }

  private static void write(ExportWriter writer, StoredRecord r) throws Exception {
    writer.write(r, r.value() == null ? new Decoded.Malformed("empty record", new byte[0]) : CODEC.decode(r.value()));
  }

  private static List<StoredRecord> readAll(Path file) throws Exception {
    var all = new ArrayList<StoredRecord>();
    try (var reader = ExportReader.open(file)) {
      for (var r = reader.next(); r != null; r = reader.next()) {
        all.add(r);
      }
    }
    return all;
  }

  @ParameterizedTest
  @ValueSource(strings = {"fleet.jsonl.zst", "fleet.jsonl.gz"})
  void keepsEveryRecordByteForByteWhetherEventMalformedOrTombstone(String name) throws Exception {
    byte[] event = CODEC.encode(Samples.envelope(Samples.of(EventType.REGISTRATION_FAILED)));
    byte[] garbage = {'{', 'n', 'o', 't', 0, (byte) 0xff, '\n', '}'};
    byte[] oddKey = {(byte) 0xc3, 0x28};
    var written = List.of(record(0, "prefill-0".getBytes(StandardCharsets.UTF_8), event),
        record(1, oddKey, garbage), record(2, null, null));
    Path file = dir.resolve(name);
    try (var writer = ExportWriter.create(file, header())) {
      for (var r : written) {
        write(writer, r);
      }
      writer.finish();
    }

    var read = readAll(file);

    assertThat(read).hasSize(3);
    for (int i = 0; i < 3; i++) {
      var w = written.get(i);
      var r = read.get(i);
      assertThat(r.position()).isEqualTo(w.position());
      assertThat(r.timestamp()).isEqualTo(w.timestamp());
      assertThat(r.key()).isEqualTo(w.key());
      assertThat(r.value()).isEqualTo(w.value());
      assertThat(r.headers()).singleElement().satisfies(h -> {
        assertThat(h.name()).isEqualTo("content-type");
        assertThat(h.value()).isEqualTo(Topics.CONTENT_TYPE.getBytes(StandardCharsets.UTF_8));
      });
    }
    assertThat(read.get(0).decode(CODEC).value()).isEqualTo(CODEC.decode(event));
    assertThat(read.get(1).decode(CODEC).value()).isInstanceOf(Decoded.Malformed.class);
  }

  @Test
  void embedsAnEventAsJsonAndSaysWhyAMalformedRecordIsNotOne() throws Exception {
    Path file = dir.resolve("fleet.jsonl.gz");
    try (var writer = ExportWriter.create(file, header())) {
      write(writer, record(0, "k".getBytes(), CODEC.encode(Samples.envelope(Samples.of(EventType.PEER_JOINED)))));
      write(writer, record(1, "k".getBytes(), "{\"specversion\":\"1.0\"}".getBytes(StandardCharsets.UTF_8)));
      writer.finish();
    }

    List<String> lines;
    try (var in = new java.util.zip.GZIPInputStream(java.nio.file.Files.newInputStream(file))) {
      lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }

    assertThat(lines).hasSize(3);
    assertThat(lines.get(0)).startsWith("{\"format\":\"kvfleet-export\",\"version\":1,");
    assertThat(lines.get(1)).contains("\"key\":\"k\"").contains("\"value\":{\"specversion\":\"1.0\"")
        .doesNotContain("malformed");
    assertThat(lines.get(2)).contains("\"valueBase64\":").contains("\"malformed\":\"missing attribute 'id'\"");
  }

  @Test
  void writesAnUndecodedValueAsJsonOnlyWhenItIsOneObjectSoNoValueAddsFieldsToItsLine() throws Exception {
    byte[] event = CODEC.encode(Samples.envelope(Samples.of(EventType.PEER_JOINED)));
    byte[] injected = "{}, \"topic\":\"kvfleet.evil\", \"offset\":99".getBytes(StandardCharsets.UTF_8);
    byte[] notAnEvent = "{\"specversion\":\"1.0\"}".getBytes(StandardCharsets.UTF_8);
    var written = List.of(record(0, "k".getBytes(), event), record(1, "k".getBytes(), injected),
        record(2, "k".getBytes(), notAnEvent), record(3, null, null));
    Path file = dir.resolve("undecoded.jsonl.zst");
    try (var writer = ExportWriter.create(file, header())) {
      for (var r : written) {
        writer.write(r);
      }
      writer.finish();
    }

    var read = readAll(file);

    assertThat(read).hasSize(4);
    for (int i = 0; i < 4; i++) {
      assertThat(read.get(i).position()).isEqualTo(written.get(i).position());
      assertThat(read.get(i).value()).isEqualTo(written.get(i).value());
    }
    assertThat(read.get(1).topic()).isEqualTo(Topics.NODES);
    assertThat(read.get(2).decode(CODEC).value()).isInstanceOf(Decoded.Malformed.class);
  }

  @Test
  void readsFromEveryFrameIncludingTheOneAfterTheLastRecord() throws Exception {
    byte[] event = CODEC.encode(Samples.envelope(Samples.of(EventType.PEER_HEARTBEAT)));
    Path file = dir.resolve("frames.jsonl.zst");
    List<ExportWriter.Frame> frames;
    try (var writer = ExportWriter.create(file, header(), 1_000)) {
      for (int i = 0; i < 3_000; i++) {
        writer.write(record(i, "k".getBytes(), event));
      }
      writer.finish();
      frames = writer.frames();
    }

    assertThat(frames).extracting(ExportWriter.Frame::recordsBefore).containsExactly(1_000L, 2_000L, 3_000L);
    for (var frame : frames) {
      var read = new ArrayList<StoredRecord>();
      try (var reader = ExportReader.openAt(file, frame)) {
        assertThat(reader.header()).isEqualTo(header());
        for (var r = reader.next(); r != null; r = reader.next()) {
          read.add(r);
        }
      }
      assertThat(read).hasSize((int) (3_000 - frame.recordsBefore()));
      if (!read.isEmpty()) {
        assertThat(read.getFirst().offset()).isEqualTo(frame.recordsBefore());
      }
    }
  }

  @Test
  void writesTheLineJacksonsGeneratorWrites() throws Exception {
    byte[] event = CODEC.encode(Samples.envelope(Samples.of(EventType.TRANSFER_REQUESTED)));
    var r = new StoredRecord(Topics.TRANSFERS, 2, 41, 1_748_779_200_123L, new byte[] {(byte) 0xc3, 0x28},
        List.of(new StoredRecord.Header("content-type", "a\"b\\c\u0001é".getBytes(StandardCharsets.UTF_8)),
            new StoredRecord.Header("n", null)), event);
    Path file = dir.resolve("line.jsonl.gz");
    try (var writer = ExportWriter.create(file, header())) {
      writer.write(r);
      writer.finish();
    }
    String line;
    try (var in = new java.util.zip.GZIPInputStream(java.nio.file.Files.newInputStream(file))) {
      line = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList().get(1);
    }

    var expected = new java.io.StringWriter();
    try (var json = io.kvfleet.control.ReplayJson.mapper().getFactory().createGenerator(expected)) {
      json.writeStartObject();
      json.writeStringField("topic", r.topic());
      json.writeNumberField("partition", r.partition());
      json.writeNumberField("offset", r.offset());
      json.writeNumberField("timestamp", r.timestamp());
      json.writeStringField("keyBase64", java.util.Base64.getEncoder().encodeToString(r.key()));
      json.writeArrayFieldStart("headers");
      json.writeStartObject();
      json.writeStringField("name", "content-type");
      json.writeStringField("value", "a\"b\\c\u0001é");
      json.writeEndObject();
      json.writeStartObject();
      json.writeStringField("name", "n");
      json.writeNullField("value");
      json.writeEndObject();
      json.writeEndArray();
      json.writeFieldName("value");
      json.writeRawValue(new String(event, StandardCharsets.UTF_8));
      json.writeEndObject();
    }
    assertThat(line).isEqualTo(expected.toString());
  }

  /**
   * The export keeps the last topic and header as bytes and writes plain keys and numbers without
   * a String: records that change topic, header and key from one to the next, with keys and
   * header values that need escaping or base64, must still give the generator's lines.
   */
  @Test
  void writesTheGeneratorsLinesWhenTopicsHeadersAndKeysChangeFromRecordToRecord() throws Exception {
    byte[] event = CODEC.encode(Samples.envelope(Samples.of(EventType.TRANSFER_REQUESTED)));
    byte[] type = Topics.CONTENT_TYPE.getBytes(StandardCharsets.UTF_8);
    byte[][] keys = {"node-1".getBytes(StandardCharsets.UTF_8), null, new byte[0], "a\"b".getBytes(StandardCharsets.UTF_8),
        "é\u007f\u0001".getBytes(StandardCharsets.UTF_8), {(byte) 0xc3, 0x28}, "x/y z~".getBytes(StandardCharsets.UTF_8)};
    List<List<StoredRecord.Header>> headers = List.of(
        List.of(new StoredRecord.Header("content-type", type)),
        List.of(new StoredRecord.Header("content-type", type)),
        List.of(new StoredRecord.Header("content-type", "other".getBytes(StandardCharsets.UTF_8))),
        List.of(),
        List.of(new StoredRecord.Header("content-type", type), new StoredRecord.Header("content-type", type)),
        List.of(new StoredRecord.Header("t\u00e9\"", null), new StoredRecord.Header("content-type", type)));
    var records = new ArrayList<StoredRecord>();
    long[] numbers = {0, 7, 10, 99, 1_000_000_007L, Long.MAX_VALUE};
    for (int k = 0; k < 42; k++) {
      String topic = List.of(Topics.NODES, Topics.TRANSFERS, "t\u00e9").get(k % 5 % 3);
      records.add(new StoredRecord(topic, (int) numbers[k % 4], numbers[k % numbers.length], numbers[(k + 3) % 6],
          keys[k % keys.length], headers.get(k % headers.size()), k % 9 == 8 ? null : event));
    }
    Path file = dir.resolve("lines.jsonl.gz");
    try (var writer = ExportWriter.create(file, header())) {
      for (var r : records) {
        writer.write(r);
      }
      writer.finish();
    }
    List<String> lines;
    try (var in = new java.util.zip.GZIPInputStream(java.nio.file.Files.newInputStream(file))) {
      lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().skip(1).toList();
    }

    assertThat(lines).containsExactlyElementsOf(records.stream().map(ExportFileTest::generatorLine).toList());
  }

  /** The line Jackson's generator writes for {@code r} (its value an event, or null). */
  private static String generatorLine(StoredRecord r) {
    var out = new java.io.StringWriter();
    try (var json = io.kvfleet.control.ReplayJson.mapper().getFactory().createGenerator(out)) {
      json.writeStartObject();
      json.writeStringField("topic", r.topic());
      json.writeNumberField("partition", r.partition());
      json.writeNumberField("offset", r.offset());
      json.writeNumberField("timestamp", r.timestamp());
      generatorBytes(json, "key", r.key());
      json.writeArrayFieldStart("headers");
      for (var h : r.headers()) {
        json.writeStartObject();
        json.writeStringField("name", h.name());
        generatorBytes(json, "value", h.value());
        json.writeEndObject();
      }
      json.writeEndArray();
      if (r.value() == null) {
        json.writeNullField("value");
        json.writeStringField("malformed", "empty record");
      } else {
        json.writeFieldName("value");
        json.writeRawValue(new String(r.value(), StandardCharsets.UTF_8));
      }
      json.writeEndObject();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return out.toString();
  }

  private static void generatorBytes(com.fasterxml.jackson.core.JsonGenerator json, String name, byte[] bytes)
      throws java.io.IOException {
    String text = bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    if (bytes == null) {
      json.writeNullField(name);
    } else if (java.util.Arrays.equals(text.getBytes(StandardCharsets.UTF_8), bytes)) {
      json.writeStringField(name, text);
    } else {
      json.writeStringField(name + "Base64", java.util.Base64.getEncoder().encodeToString(bytes));
    }
  }

  @Test
  void readsTheHeaderAndManyRecordsAcrossBufferBoundaries() throws Exception {
    byte[] event = CODEC.encode(Samples.envelope(Samples.of(EventType.TRANSFER_REQUESTED)));
    Path file = dir.resolve("many.jsonl.zst");
    try (var writer = ExportWriter.create(file, header())) {
      for (int i = 0; i < 2_000; i++) {
        write(writer, record(i, ("node-" + i).getBytes(), event));
      }
      writer.finish();
    }

    try (var reader = ExportReader.open(file)) {
      assertThat(reader.header()).isEqualTo(header());
    }
    var read = readAll(file);
    assertThat(read).hasSize(2_000);
    assertThat(read).allSatisfy(r -> assertThat(r.value()).isEqualTo(event));
    assertThat(read.getLast().keyText()).isEqualTo("node-1999");
  }

  /** An export cut short (a copy, a full disk) failed with "Truncated source" alone; it now says what to do. */
  @Test
  void aCutShortExportSaysWhereItEndsAndHowToReadWhatItHolds() throws Exception {
    byte[] event = CODEC.encode(Samples.envelope(Samples.of(EventType.TRANSFER_REQUESTED)));
    Path file = dir.resolve("whole.jsonl.zst");
    try (var writer = ExportWriter.create(file, header())) {
      for (int i = 0; i < 20_000; i++) {
        write(writer, record(i, ("node-" + i).getBytes(), event));
      }
      writer.finish();
    }
    byte[] bytes = java.nio.file.Files.readAllBytes(file);
    Path cut = dir.resolve("cut-short.jsonl.zst");
    java.nio.file.Files.write(cut, java.util.Arrays.copyOf(bytes, bytes.length * 2 / 3));

    var run = Cli.run("replay", "--file", cut.toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains(" records read): ").contains("the file ends early")
        .contains("zstdcat -q " + cut + " | head -n -1 | zstd -q -o " + cut + ".part.zst");
  }

  @Test
  void leavesNoFileWhenTheExportIsNotFinished() throws Exception {
    Path file = dir.resolve("cut.jsonl.zst");
    java.nio.file.Files.writeString(file, "an older export");
    byte[] event = CODEC.encode(Samples.envelope(Samples.of(EventType.PEER_JOINED)));
    try (var writer = ExportWriter.create(file, header())) {
      write(writer, record(0, "k".getBytes(), event));
      assertThat(dir.resolve("cut.jsonl.zst.partial")).exists();
    } // as when the export fails: closed without finish

    assertThat(java.nio.file.Files.readString(file)).as("the older export is kept").isEqualTo("an older export");
    assertThat(dir.resolve("cut.jsonl.zst.partial")).doesNotExist();
  }

  /** A part of the log (export --node, --since...) replayed as if whole showed its gaps as anomalies, unexplained (a new user's run). */
  @Test
  void replayOfAFilteredExportSaysItIsAPartOfTheLog() throws Exception {
    Path part = dir.resolve("part.jsonl.gz");
    Path whole = dir.resolve("whole.jsonl.gz");
    for (var file : List.of(part, whole)) {
      try (var writer = ExportWriter.create(file, header(file == part ? "node decode-0" : "none"))) {
        write(writer, record(0, "k".getBytes(), CODEC.encode(Samples.envelope(Samples.of(EventType.PEER_JOINED)))));
        writer.finish();
      }
    }

    var ofPart = Cli.run("replay", "--file", part.toString());
    var ofWhole = Cli.run("replay", "--file", whole.toString());

    assertThat(ofPart.out()).contains("This export holds only part of the log (node decode-0)");
    assertThat(ofWhole.out()).doesNotContain("only part of the log");
  }

  @Test
  void replayAndExplainSayWhereAnExportIsBrokenWithoutAStackTrace() throws Exception {
    Path whole = dir.resolve("whole.jsonl.gz");
    try (var writer = ExportWriter.create(whole, header())) {
      write(writer, record(0, "k".getBytes(), CODEC.encode(Samples.envelope(Samples.of(EventType.PEER_JOINED)))));
      writer.finish();
    }
    String headerLine;
    try (var in = new java.util.zip.GZIPInputStream(java.nio.file.Files.newInputStream(whole))) {
      headerLine = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().findFirst().orElseThrow();
    }
    Path broken = dir.resolve("broken.jsonl.gz");
    try (var out = new java.util.zip.GZIPOutputStream(java.nio.file.Files.newOutputStream(broken))) {
      out.write((headerLine + "\n{\"topic\":\"kvfleet.nodes\",\"partit").getBytes(StandardCharsets.UTF_8));
    }

    for (var run : List.of(Cli.run("replay", "--file", broken.toString()),
        Cli.run("explain", "node", "prefill-0", "--file", broken.toString()))) {
      assertThat(run.exitCode()).isEqualTo(2);
      assertThat(run.err()).contains(broken + " line 2 is not an export record").doesNotContain("\tat ");
    }
  }

  @Test
  void refusesAnExportNameThatSaysNoCompression() {
    assertThatThrownBy(() -> ExportWriter.create(dir.resolve("fleet.jsonl"), header()))
        .isInstanceOf(KvfleetException.class)
        .hasMessageContaining("name the export .jsonl.zst (zstd) or .jsonl.gz (gzip)");
    assertThat(dir).as("not even a partial file").isEmptyDirectory();
  }

  @Test
  void refusesToReadAFileThatIsNeitherZstdNorGzip() throws Exception {
    Path file = dir.resolve("plain.jsonl.zst");
    java.nio.file.Files.writeString(file, "{\"format\":\"kvfleet-export\"}\n");

    assertThatThrownBy(() -> ExportReader.open(file))
        .isInstanceOf(KvfleetException.class)
        .hasMessageContaining("is neither zstd nor gzip");
  }

  @Test
  void cutsTheValueThatClosesTheLineAndOnlyThat() {
    assertThat(valueEnd("{\"key\":\"k\",\"value\":{\"a\":\"}{\\\"\",\"b\":[1,{}]}}")).isEqualTo("{\"a\":\"}{\\\"\",\"b\":[1,{}]}");
    assertThat(valueEnd("{\"key\":\"k\",\"value\":{\"a\":1} }  ")).isEqualTo("{\"a\":1}");
    assertThat(valueEnd("{\"key\":\"k\",\"value\":{\"a\":1},\"later\":2}")).isNull();
    assertThat(valueEnd("{\"key\":\"k\",\"value\":{\"a\":\"1}")).isNull();
  }

  private static String valueEnd(String line) {
    byte[] padded = ("xx" + line + "yy").getBytes(StandardCharsets.UTF_8);
    var l = new Lines.Line(padded, 2, padded.length - 4);
    int from = line.indexOf("\"value\":") + "\"value\":".length();
    int to = ExportReader.lastValueEnd(l, from);
    return to < 0 ? null : line.substring(from, to);
  }
}
