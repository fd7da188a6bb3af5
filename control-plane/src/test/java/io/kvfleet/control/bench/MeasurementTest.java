package io.kvfleet.control.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.Test;

class MeasurementTest {

  @Test
  void recordsTheLatencyFromStartToFirstAnswerInMicroseconds() {
    var m = Measurement.openLoop();
    m.started(7, 1_000_000);
    m.answered(7, 3_500_000, true);
    var latencies = m.latencies();
    assertThat(latencies.getTotalCount()).isEqualTo(1);
    assertThat(latencies.getMaxValue()).isBetween(2_499L, 2_501L);
    assertThat(m.pending()).isZero();
  }

  @Test
  void countsARepeatedAnswerOnce() {
    var m = Measurement.openLoop();
    m.started(1, 0);
    m.answered(1, 10_000, true);
    m.answered(1, 20_000, true);
    assertThat(m.answered()).isEqualTo(1);
    assertThat(m.latencies().getTotalCount()).isEqualTo(1);
  }

  @Test
  void ignoresAnswersToRequestsItDidNotStart() {
    var m = Measurement.openLoop();
    m.answered(42, 10_000, true);
    assertThat(m.answered()).isZero();
    assertThat(m.lastAnswerNanos()).isZero();
  }

  @Test
  void countsFailedAnswersApart() {
    var m = Measurement.openLoop();
    m.started(1, 0);
    m.started(2, 0);
    m.answered(1, 5_000, false);
    m.answered(2, 5_000, true);
    assertThat(m.answered()).isEqualTo(2);
    assertThat(m.failed()).isEqualTo(1);
  }

  @Test
  void returnsAPermitToTheWindowForEachAnswer() {
    var window = new Semaphore(0);
    var m = Measurement.closedLoop(window);
    m.started(1, 0);
    m.answered(1, 1_000, true);
    m.answered(1, 2_000, true);
    assertThat(window.availablePermits()).isEqualTo(1);
  }
}
