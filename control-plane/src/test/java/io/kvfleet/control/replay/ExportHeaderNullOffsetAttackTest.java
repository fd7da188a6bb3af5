package io.kvfleet.control.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * An export header whose start or end offsets map a partition to null: the header record took
 * the map as it was, and {@code replay --file} summed the offsets for its progress bar, a
 * {@link NullPointerException} with a stack trace (exit 1) instead of "not an export header".
 */
class ExportHeaderNullOffsetAttackTest {
  private static final String HEADER = "{\"format\":\"kvfleet-export\",\"version\":1,"
      + "\"created\":\"2025-06-01T12:00:00Z\",\"bootstrapServers\":\"x\",\"topics\":[\"kvfleet.nodes\"],"
      + "\"order\":\"o\",\"filter\":\"none\",\"startOffsets\":{},\"endOffsets\":{}}";

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"startOffsets", "endOffsets"})
  void aNullOffsetIsNotAnExportHeader(String field) throws Exception {
    Path export = dir.resolve(field + ".jsonl.gz");
    try (var out = new GZIPOutputStream(Files.newOutputStream(export))) {
      out.write((HEADER.replace("\"" + field + "\":{}", "\"" + field + "\":{\"kvfleet.nodes-0\":null}") + "\n")
          .getBytes(StandardCharsets.UTF_8));
    }

    var run = Cli.run("replay", "--file", export.toString());

    assertThat(run.err()).doesNotContain("Exception").contains("is not a kvfleet export");
    assertThat(run.exitCode()).isEqualTo(2);
  }
}
