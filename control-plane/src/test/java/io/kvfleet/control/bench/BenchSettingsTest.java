package io.kvfleet.control.bench;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BenchSettingsTest {
  private static final Duration S = Duration.ofSeconds(1);

  @Test
  void rejectsANonPositiveRateWindowOrPageCount() {
    assertThatThrownBy(() -> new BenchSettings(0, S, S, 1, 1, S)).hasMessageContaining("rate");
    assertThatThrownBy(() -> new BenchSettings(1, S, S, 0, 1, S)).hasMessageContaining("window");
    assertThatThrownBy(() -> new BenchSettings(1, S, S, 1, 0, S)).hasMessageContaining("pages");
  }

  @Test
  void rejectsAnEmptyPhase() {
    assertThatThrownBy(() -> new BenchSettings(1, Duration.ZERO, S, 1, 1, S)).hasMessageContaining("duration");
  }
}
