package io.kvfleet.control.replay;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An export line that says a field twice (the same member, or text and base64 of one field), or
 * gives a position as a fraction, was read as one record anyway: the last member won and the other
 * was dropped without a word, and partition 1.9 or offset 7.5 became 1 or 7. The writer writes each
 * field once and positions as integers, so such a line is refused with the field named.
 */
class ExportLineAmbiguityAttackTest {
  private static final JsonFactory JSON = new JsonFactory();
  private static final String POSITION = "\"topic\":\"kvfleet.transfers\",\"partition\":0,\"offset\":7,\"timestamp\":5";
  private static final String VALUE = "\"value\":{\"specversion\":\"1.0\"}";

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      POSITION + "," + VALUE + ",\"valueBase64\":\"AAAA\"|\"valueBase64\"",
      POSITION + ",\"valueBase64\":\"AAAA\"," + VALUE + "|\"value\"",
      POSITION + ",\"value\":\"text\"," + VALUE + "|\"value\"",
      POSITION + ",\"key\":\"a\",\"keyBase64\":\"Yg==\"," + VALUE + "|\"keyBase64\"",
      POSITION + ",\"key\":\"a\",\"key\":\"b\"," + VALUE + "|\"key\"",
      POSITION + ",\"headers\":[{\"name\":\"a\",\"value\":\"1\"}],\"headers\":[]," + VALUE + "|\"headers\"",
      POSITION + ",\"topic\":\"kvfleet.peers\"," + VALUE + "|\"topic\"",
      POSITION + ",\"offset\":8," + VALUE + "|\"offset\"",
      "\"topic\":\"kvfleet.transfers\",\"partition\":1.9,\"offset\":7,\"timestamp\":5," + VALUE + "|\"partition\"",
      "\"topic\":\"kvfleet.transfers\",\"partition\":0,\"offset\":7.5,\"timestamp\":5," + VALUE + "|\"offset\"",
      "\"topic\":\"kvfleet.transfers\",\"partition\":0,\"offset\":7,\"timestamp\":5e0," + VALUE + "|\"timestamp\""})
  void anAmbiguousLineIsRefusedNotReadWithAFieldDropped(String fields, String named) {
    String line = "{" + fields + "}";

    assertThatThrownBy(() -> read(line)).isInstanceOf(IOException.class).hasMessageContaining(named);
  }

  private static StoredRecord read(String line) throws IOException {
    byte[] b = line.getBytes(StandardCharsets.UTF_8);
    try (var p = JSON.createParser(b)) {
      return ExportReader.record(p, new Lines.Line(b, 0, b.length));
    }
  }
}
