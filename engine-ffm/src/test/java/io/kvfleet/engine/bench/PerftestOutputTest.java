package io.kvfleet.engine.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Reading ucx_perftest's table (UCX 1.13.1 output). */
class PerftestOutputTest {
  private static final String OUTPUT = """
      +--------------+--------------+------------------------------+---------------------+-----------------------+
      |              |              |       overhead (usec)        |   bandwidth (MB/s)  |  message rate (msg/s) |
      +--------------+--------------+----------+---------+---------+----------+----------+-----------+-----------+
      |    Stage     | # iterations | 50.0%ile | average | overall |  average |  overall |  average  |  overall  |
      +--------------+--------------+----------+---------+---------+----------+----------+-----------+-----------+
      Final:                  2000      0.020    60.388    60.388     1034.97    1034.97       16559       16559
      """;

  @Test
  void readsTheOverallBandwidthOfTheFinalLine() {
    Measurement measured = PerftestRunner.parse(OUTPUT, 65536).orElseThrow();
    assertThat(measured.ops()).isEqualTo(2000);
    assertThat(measured.bytes()).isEqualTo(2000L * 65536);
    assertThat(measured.mebibytesPerSecond()).isCloseTo(1034.97, org.assertj.core.data.Offset.offset(0.01));
    assertThat(measured.microsPerOp()).isCloseTo(60.388, org.assertj.core.data.Offset.offset(0.01));
  }

  @Test
  void findsNothingWithoutAFinalLine() {
    assertThat(PerftestRunner.parse("connect() failed: Connection refused", 4096)).isEmpty();
  }
}
