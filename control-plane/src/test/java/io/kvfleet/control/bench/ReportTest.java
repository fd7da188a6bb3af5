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
  private static final RecordSizes SIZES = new RecordSizes(15, 744, 1200, 536);

  @Test
  void writesRatiosWithTwoDecimalsAndNaWithoutAReference() {
    assertThat(Report.ratio(6, 3)).isEqualTo("2.00x");
    assertThat(Report.ratio(1, 3)).isEqualTo("0.33x");
    assertThat(Report.ratio(1, 0)).isEqualTo("n/a");
    assertThat(Report.ratio(Double.NaN, 1)).isEqualTo("n/a");
  }

  @Test
  void putsEachPhasesPercentilesAndTheirRatiosInTheTable() {
    var report = report(constant(1_500), constant(1_000), constant(1_200), 10_000, 20_000, 12_500);
    String table = report.table();
    assertThat(table).contains("p50 ms", "p99 ms", "p99.9 ms", "answers/s");
    assertThat(table).contains("1000/s", "saturation, window 256", "kvfleet", "raw Kafka", "raw 3-hop");
    assertThat(table).contains("ours/raw", "ours/3-hop", "3-hop/raw");
    assertThat(table).contains("1.50x", "0.50x", "1.25x", "0.80x", "1.20x", "0.63x");
    assertThat(table).contains("1000/1000");
  }

  @Test
  void saysTheTargetsAreMetAtOneAndAHalfTimesTheLatencyAndHalfTheThroughput() {
    var report = report(constant(1_500), constant(1_000), constant(1_200), 10_000, 20_000, 12_500);
    assertThat(report.p99Ratio()).isEqualTo(1.5);
    assertThat(report.throughputRatio()).isEqualTo(0.5);
    assertThat(report.targets()).contains("1.500x (met)", "50.0% (met)").doesNotContain("NOT");
    assertThat(report.targets()).contains("against the raw 3-hop chain 1.250x", "of the raw 3-hop chain 80.0%");
  }

  @Test
  void saysATargetIsNotMetWhenOursIsSlower() {
    var report = report(constant(2_000), constant(1_000), constant(1_500), 6_000, 20_000, 12_000);
    assertThat(report.targets()).contains("2.000x (NOT met)", "30.0% (NOT met)");
  }

  @Test
  void printsTheRecordSizesTheCpuTheGcTheAllocationAndWhatLimitsOurs() {
    String text = report(constant(2_000), constant(1_000), constant(1_500), 6_000, 20_000, 12_000).format();
    assertThat(text).contains("2 node agents", "request 744 B", "dispatched 1200 B", "terminal 536 B");
    assertThat(text).contains("1.50 cores: ", "broker 1.00", "event loops 0.50", "GC pauses 3, 120 ms; allocated 10 MB");
    assertThat(text).contains("compile time 0.40/s", "broker JVM 0.70 cores", "10.2 KB per answer");
    assertThat(text).contains("stopped 3 times (120 ms in all)", "allocated 10.2 KB per transfer");
    assertThat(text).contains("What limits ours", "in-JVM memcpy");
  }

  @Test
  void needsTheThreeSystemsForBothPhases() {
    assertThatThrownBy(() -> new Report(SETTINGS, SIZES, 2, List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static Report report(Histogram ours, Histogram raw, Histogram chain, double oursThroughput,
      double rawThroughput, double chainThroughput) {
    var cpu = new CpuUse(1.5, Map.of("broker", 1.0, "event loops", 0.5), 3, 120, 10L << 20, 0.4, 0.7);
    return new Report(SETTINGS, SIZES, 2, List.of(
        new PhaseResult("kvfleet", "1000/s", ours, 1000, 1000, 0, 1000, cpu),
        new PhaseResult("raw Kafka", "1000/s", raw, 1000, 1000, 0, 1000, cpu),
        new PhaseResult("raw 3-hop", "1000/s", chain, 1000, 1000, 0, 1000, cpu),
        new PhaseResult("kvfleet", "saturation, window 256", ours, 1000, 1000, 0, oursThroughput, cpu),
        new PhaseResult("raw Kafka", "saturation, window 256", raw, 1000, 1000, 0, rawThroughput, cpu),
        new PhaseResult("raw 3-hop", "saturation, window 256", chain, 1000, 1000, 0, chainThroughput, cpu)));
  }

  /** A histogram in which every latency is {@code micros} (exact below 2048 µs at 3 digits). */
  private static Histogram constant(long micros) {
    var h = new Histogram(3);
    h.recordValueWithCount(micros, 1000);
    return h;
  }
}
