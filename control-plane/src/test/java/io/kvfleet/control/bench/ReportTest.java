package io.kvfleet.control.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class ReportTest {
  private static final BenchSettings SETTINGS =
      new BenchSettings(1000, Duration.ofSeconds(20), Duration.ofSeconds(5), 256, 1, Duration.ofSeconds(30));
  private static final RecordSizes SIZES = new RecordSizes(15, 744, 536);

  @Test
  void writesRatiosWithTwoDecimalsAndNaWithoutAReference() {
    assertThat(Report.ratio(6, 3)).isEqualTo("2.00x");
    assertThat(Report.ratio(1, 3)).isEqualTo("0.33x");
    assertThat(Report.ratio(1, 0)).isEqualTo("n/a");
    assertThat(Report.ratio(Double.NaN, 1)).isEqualTo("n/a");
  }

  @Test
  void putsEachPhasesPercentilesAndTheirRatiosInTheTable() {
    var report = report(constant(2_000), constant(1_000), 6_000, 20_000);
    String table = report.table();
    assertThat(table).contains("p50 ms", "p99 ms", "p99.9 ms", "answers/s");
    assertThat(table).contains("1000/s", "saturation, window 256", "kvfleet", "raw Kafka", "ours/raw");
    assertThat(table).contains("2.00", "1.00", "2.00x", "0.30x");
    assertThat(table).contains("1000/1000");
  }

  @Test
  void saysTheTargetsAreMetAtTwiceTheLatencyAndThirtyPercentOfTheThroughput() {
    var report = report(constant(2_000), constant(1_000), 6_000, 20_000);
    assertThat(report.p99Ratio()).isEqualTo(2.0);
    assertThat(report.throughputRatio()).isEqualTo(0.3);
    assertThat(report.targets()).contains("2.000x (met)", "30.0% (met)").doesNotContain("NOT");
  }

  @Test
  void saysATargetIsNotMetWhenOursIsSlower() {
    var report = report(constant(2_500), constant(1_000), 5_000, 20_000);
    assertThat(report.targets()).contains("2.501x (NOT met)", "25.0% (NOT met)");
  }

  @Test
  void printsTheRecordSizesTheCpuTheGcAndWhatLimitsOurs() {
    String text = report(constant(2_000), constant(1_000), 6_000, 20_000).format();
    assertThat(text).contains("request 744 B", "terminal 536 B");
    assertThat(text).contains("1.50 cores: ", "broker 1.00", "event loops 0.50", "GC pauses 3, 120 ms; allocated 10 MB");
    assertThat(text).contains("stopped 3 times (120 ms in all)", "allocated 10.2 KB per transfer");
    assertThat(text).contains("What limits ours", "in-JVM memcpy");
  }

  @Test
  void needsOursAndRawForBothPhases() {
    assertThatThrownBy(() -> new Report(SETTINGS, SIZES, List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static Report report(Histogram ours, Histogram raw, double oursThroughput, double rawThroughput) {
    var cpu = new CpuUse(1.5, Map.of("broker", 1.0, "event loops", 0.5), 3, 120, 10L << 20);
    return new Report(SETTINGS, SIZES, List.of(
        new PhaseResult("kvfleet", "1000/s", ours, 1000, 1000, 0, 1000, cpu),
        new PhaseResult("raw Kafka", "1000/s", raw, 1000, 1000, 0, 1000, cpu),
        new PhaseResult("kvfleet", "saturation, window 256", ours, 1000, 1000, 0, oursThroughput, cpu),
        new PhaseResult("raw Kafka", "saturation, window 256", raw, 1000, 1000, 0, rawThroughput, cpu)));
  }

  /** A histogram in which every latency is {@code micros} (exact below 2048 µs at 3 digits). */
  private static Histogram constant(long micros) {
    var h = new Histogram(3);
    h.recordValueWithCount(micros, 1000);
    return h;
  }
}
