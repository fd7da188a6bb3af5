package io.kvfleet.events.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The one way sizes and times are written for operators (explanations here, event lines in the console). */
class TextTest {

  @Test
  void writesSizesInTheLargestUnitUpToMebibytes() {
    assertThat(Text.bytes(0)).isEqualTo("0 B");
    assertThat(Text.bytes(1023)).isEqualTo("1023 B");
    assertThat(Text.bytes(1024)).isEqualTo("1.0 KiB");
    assertThat(Text.bytes(16 * 1024 + 512)).isEqualTo("16.5 KiB");
    assertThat(Text.bytes((1 << 20) - 1)).isEqualTo("1024.0 KiB");
    assertThat(Text.bytes(5L << 29)).isEqualTo("2560.0 MiB");
  }

  @Test
  void writesATimeOfDayInUtcToTheMillisecondAndAMissingOneAsAQuestionMark() {
    assertThat(Text.clock(Instant.parse("2025-06-01T10:42:07.123456Z"))).isEqualTo("10:42:07.123");
    assertThat(Text.clock(null)).isEqualTo("?");
  }
}
