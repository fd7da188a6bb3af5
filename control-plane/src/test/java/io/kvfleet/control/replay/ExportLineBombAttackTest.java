package io.kvfleet.control.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.control.KvfleetException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An export of a few kilobytes whose zstd frame decompresses to one line of 1.1 GiB with no line
 * break (a zstd bomb; gzip does the same). The line splitter doubled its buffer for as long as the
 * line went on: past 1 GiB it asked for a negative array size, and before that it ran a 2 GiB heap
 * out of memory; either escaped {@code ExportReader.open}, which turns only an IOException into its
 * clear "cannot read ... as a kvfleet export", so {@code replay --file}, {@code explain} and time
 * travel died with a stack trace. No export line is that long: one line holds one Kafka record.
 */
class ExportLineBombAttackTest {
  private static final long BOMB = 1_100L << 20;

  @TempDir Path dir;

  @Test
  void aLineLongerThanAnyRecordIsABadExportNotAnOutOfMemoryError() throws IOException {
    Path export = dir.resolve("bomb.jsonl.zst");
    writeOneEndlessLine(export, BOMB);
    assertThat(Files.size(export)).isLessThan(1 << 20);

    assertThatThrownBy(() -> ExportReader.open(export).close())
        .isInstanceOf(KvfleetException.class)
        .hasMessageContaining("longer than");
  }

  private static void writeOneEndlessLine(Path file, long bytes) throws IOException {
    byte[] chunk = new byte[1 << 20];
    Arrays.fill(chunk, (byte) 'a');
    try (var out = Compression.ZSTD.compress(Files.newOutputStream(file))) {
      for (long written = 0; written < bytes; written += chunk.length) {
        out.write(chunk);
      }
    }
  }
}
