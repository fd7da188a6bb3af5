package io.kvfleet.events.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.codec.Decoded;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FoldOrderTest {

  private static LogRecord record(String topic, int partition, long offset) {
    return new LogRecord(new LogPosition(topic, partition, offset), Instant.EPOCH, "",
        new Decoded.Malformed("x", new byte[0]));
  }

  @Test
  void recordsRunsOfConsecutiveRecordsFromOnePartition() {
    var builder = new FoldOrder.Builder(FoldOrder.EMPTY);
    builder.add("a", 0, 0);
    builder.add("a", 0, 1);
    builder.add("b", 1, 0);
    builder.add("a", 0, 2);

    assertThat(builder.build().runs()).containsExactly(
        new FoldOrder.Run("a", 0, 0, 1), new FoldOrder.Run("b", 1, 0, 0), new FoldOrder.Run("a", 0, 2, 2));
    assertThat(builder.nextOffsets()).containsExactly(java.util.Map.entry("a-0", 3L), java.util.Map.entry("b-1", 1L));
  }

  @Test
  void refusesARecordAlreadyFoldedSoARedeliveryIsNotFoldedTwice() {
    var builder = new FoldOrder.Builder(new FoldOrder(List.of(new FoldOrder.Run("a", 0, 0, 9))));

    assertThat(builder.add("a", 0, 4)).isFalse();
    assertThat(builder.add("a", 0, 10)).isTrue();
    assertThat(builder.build().runs()).hasSize(2);
  }

  @Test
  void arrangesALogInTheOrderItRecordsAndLeavesOutWhatItNeverFolded() {
    var order = new FoldOrder(List.of(new FoldOrder.Run("b", 0, 0, 1), new FoldOrder.Run("a", 0, 0, 0)));
    var log = new ArrayList<>(List.of(record("a", 0, 0), record("a", 0, 1), record("b", 0, 0), record("b", 0, 1)));

    assertThat(order.arrange(log)).extracting(r -> r.position().toString())
        .containsExactly("b-0@0", "b-0@1", "a-0@0");
  }

  @Test
  void namesTheRecordsBeforeItsEndThatItLeavesOut() {
    // Folded: a-0 0..1 and 3..4 (offset 2 skipped), b-0 0..0; b-0@1 and a-0@5 lie past its end.
    var order = new FoldOrder(List.of(new FoldOrder.Run("a", 0, 0, 1), new FoldOrder.Run("b", 0, 0, 0),
        new FoldOrder.Run("a", 0, 3, 4)));
    var log = List.of(record("a", 0, 0), record("a", 0, 1), record("a", 0, 2), record("a", 0, 3), record("a", 0, 4),
        record("a", 0, 5), record("b", 0, 0), record("b", 0, 1), record("c", 0, 0));

    assertThat(order.leftOut(log)).extracting(LogPosition::toString).containsExactly("a-0@2");
    // An offset the log has no record at (a transaction marker) is no gap.
    assertThat(order.leftOut(List.of(record("a", 0, 0), record("a", 0, 1), record("a", 0, 3)))).isEmpty();
  }
}
