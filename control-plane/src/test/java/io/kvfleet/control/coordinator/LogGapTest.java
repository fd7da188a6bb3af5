package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LogGapTest {
  @Test
  void aPartitionThatBeginsPastWhereTheFoldStartsMissesTheEventsBetween() {
    var gap = LogGap.of(Map.of("kvfleet.nodes-0", 120L, "kvfleet.nodes-1", 0L, "kvfleet.transfers-0", 40L),
        Map.of("kvfleet.transfers-0", 25L));
    assertThat(gap.byPartition()).containsExactly(Map.entry("kvfleet.nodes-0", 120L),
        Map.entry("kvfleet.transfers-0", 15L));
    assertThat(gap.total()).isEqualTo(135);
  }

  @Test
  void aSnapshotPastWhereTheLogBeginsLeavesNoGap() {
    var gap = LogGap.of(Map.of("kvfleet.nodes-0", 120L), Map.of("kvfleet.nodes-0", 500L));
    assertThat(gap.byPartition()).isEmpty();
    assertThat(gap.total()).isZero();
  }
}
