package io.kvfleet.control.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An export line with an object or array where text or a header list belongs: read as text, it
 * left the parser inside it, and the record's later fields (its value) were lost without a word.
 * Each is now the reader's documented error, naming the field.
 */
class ExportLineShapeAttackTest {
  private static final JsonFactory JSON = new JsonFactory();
  private static final String VALUE = "\"value\":{\"specversion\":\"1.0\"}";

  @TempDir Path dir;

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "\"headers\":\"x\"|\"headers\" is not an array",
      "\"headers\":{\"name\":\"a\"}|\"headers\" is not an array",
      "\"headers\":[\"a\"]|where a header object belongs",
      "\"headers\":[{\"name\":{\"x\":1}}]|\"headers[].name\" is an object",
      "\"key\":[1,2]|\"key\" is an array",
      "\"keyBase64\":{\"a\":1}|\"keyBase64\" is an object",
      "\"keyBase64\":null|\"keyBase64\" is null",
      "\"headers\":[{\"name\":null}]|\"headers[].name\" is null"})
  void aFieldOfTheWrongShapeIsRefusedNotReadPastItsValue(String field, String reason) {
    String line = "{\"topic\":\"kvfleet.transfers\",\"partition\":0,\"offset\":7,\"timestamp\":5," + field + ","
        + VALUE + "}";

    assertThatThrownBy(() -> read(line)).isInstanceOf(IOException.class).hasMessageContaining(reason);
  }

  /** A partition or offset out of range, or missing, is refused naming the field (Jackson's range error did not). */
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "\"partition\":4294967296,\"offset\":7|\"partition\" is 4294967296, not 0 to 2147483647",
      "\"partition\":-1,\"offset\":7|\"partition\" is -1, not 0 to 2147483647",
      "\"partition\":0,\"offset\":-5|\"offset\" is -5, not 0 to 9223372036854775807",
      "\"partition\":0,\"offset\":99999999999999999999|\"offset\" is 99999999999999999999, not 0 to",
      "\"partition\":0,\"offset\":7,\"timestamp\":99999999999999999999|\"timestamp\" is 99999999999999999999, not -1 to",
      "\"partition\":0|no \"offset\"",
      "\"offset\":7|no \"partition\""})
  void aPartitionOrOffsetOutOfRangeIsRefusedNamingIt(String fields, String reason) {
    String line = "{\"topic\":\"kvfleet.transfers\"," + fields + ",\"timestamp\":5," + VALUE + "}";

    assertThatThrownBy(() -> read(line)).isInstanceOf(IOException.class).hasMessageContaining(reason);
  }

  @Test
  void aTopicThatHidesAValueIsRefused() {
    String line = "{\"topic\":{\"value\":\"forged\"},\"partition\":0,\"offset\":7,\"timestamp\":5," + VALUE + "}";

    assertThatThrownBy(() -> read(line)).isInstanceOf(IOException.class).hasMessageContaining("\"topic\" is an object");
  }

  @Test
  void aNullTopicIsRefusedNotReadAsATopicNamedNull() {
    String line = "{\"topic\":null,\"partition\":0,\"offset\":7,\"timestamp\":5," + VALUE + "}";

    assertThatThrownBy(() -> read(line)).isInstanceOf(IOException.class).hasMessageContaining("\"topic\" is null");
  }

  @Test
  void aNullHeaderListIsNoHeaders() throws IOException {
    var record = read("{\"topic\":\"kvfleet.transfers\",\"partition\":0,\"offset\":7,\"timestamp\":5,"
        + "\"headers\":null," + VALUE + "}");

    assertThat(record.headers()).isEmpty();
    assertThat(new String(record.value(), StandardCharsets.UTF_8)).isEqualTo("{\"specversion\":\"1.0\"}");
  }

  @Test
  void replayOfAFileWithSuchALineSaysWhichLineAndWhy() throws Exception {
    Path export = dir.resolve("shape.jsonl.gz");
    String header = "{\"format\":\"kvfleet-export\",\"version\":1,\"created\":\"2025-06-01T12:00:00Z\","
        + "\"bootstrapServers\":\"x\",\"topics\":[\"kvfleet.transfers\"],\"order\":\"o\",\"filter\":\"none\","
        + "\"startOffsets\":{\"kvfleet.transfers-0\":0},\"endOffsets\":{\"kvfleet.transfers-0\":8}}";
    try (var out = new GZIPOutputStream(Files.newOutputStream(export))) {
      out.write((header + "\n{\"topic\":\"kvfleet.transfers\",\"partition\":0,\"offset\":7,\"timestamp\":5,"
          + "\"headers\":\"x\"," + VALUE + "}\n").getBytes(StandardCharsets.UTF_8));
    }

    var run = Cli.run("replay", "--file", export.toString());

    assertThat(run.err()).doesNotContain("Exception").contains("line").contains("\"headers\" is not an array");
    assertThat(run.exitCode()).isEqualTo(2);
  }

  private static StoredRecord read(String line) throws IOException {
    byte[] b = line.getBytes(StandardCharsets.UTF_8);
    try (var p = JSON.createParser(b)) {
      return ExportReader.record(p, new Lines.Line(b, 0, b.length));
    }
  }
}
