package io.kvfleet.control.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LoadGeneratorTest {

  @Test
  void schedulesOneRequestPerMillisecondAtAThousandPerSecond() {
    var generator = new LoadGenerator(1000);
    assertThat(generator.dueAfter(0)).isZero();
    assertThat(generator.dueAfter(1)).isEqualTo(1_000_000);
    assertThat(generator.dueAfter(20_000)).isEqualTo(20_000_000_000L);
  }

  @Test
  void spreadsRatesThatDoNotDivideASecondWithoutDrift() {
    var generator = new LoadGenerator(3);
    assertThat(generator.dueAfter(1)).isEqualTo(333_333_333);
    assertThat(generator.dueAfter(2)).isEqualTo(666_666_666);
    assertThat(generator.dueAfter(3)).isEqualTo(1_000_000_000);
  }

  @Test
  void sendsRateTimesDurationRequests() {
    assertThat(new LoadGenerator(1000).count(Duration.ofSeconds(20))).isEqualTo(20_000);
    assertThat(new LoadGenerator(20).count(Duration.ofMillis(1500))).isEqualTo(30);
  }

  @Test
  void rejectsANonPositiveRate() {
    assertThatThrownBy(() -> new LoadGenerator(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rate");
  }
}
