package io.kvfleet.control.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

class DurationConverterTest {
  private final DurationConverter converter = new DurationConverter();

  @Test
  void readsOperatorDurations() {
    assertThat(converter.convert("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(converter.convert("30s")).isEqualTo(Duration.ofSeconds(30));
    assertThat(converter.convert("2m")).isEqualTo(Duration.ofMinutes(2));
    assertThat(converter.convert("1h")).isEqualTo(Duration.ofHours(1));
  }

  @Test
  void rejectsAMissingUnitWithAnExample() {
    assertThatThrownBy(() -> converter.convert("30"))
        .isInstanceOf(TypeConversionException.class)
        .hasMessageContaining("e.g. 500ms, 30s");
  }
}
