package io.kvfleet.events.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.Topics;
import io.kvfleet.events.codec.Decoded;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplayOrderTest {

  private static LogRecord at(String topic, int partition, long offset, long millis) {
    return new LogRecord(new LogPosition(topic, partition, offset), Instant.ofEpochMilli(millis), "k",
        new Decoded.Malformed("test", new byte[0]));
  }

  @Test
  void mergesPartitionsByTimestampThenTopicThenPartition() {
    var nodes0 = List.of(at(Topics.NODES, 0, 0, 10), at(Topics.NODES, 0, 1, 30));
    var nodes1 = List.of(at(Topics.NODES, 1, 0, 20));
    var transfers0 = List.of(at(Topics.TRANSFERS, 0, 0, 10));

    assertThat(ReplayOrder.merge(List.of(transfers0, nodes1, nodes0))).extracting(r -> r.position().toString())
        .containsExactly("kvfleet.nodes-0@0", "kvfleet.transfers-0@0", "kvfleet.nodes-1@0", "kvfleet.nodes-0@1");
  }

  @Test
  void keepsEachPartitionInOffsetOrderEvenWhenItsTimestampsGoBackwards() {
    var nodes0 = List.of(at(Topics.NODES, 0, 0, 50), at(Topics.NODES, 0, 1, 5));
    var nodes1 = List.of(at(Topics.NODES, 1, 0, 20));

    assertThat(ReplayOrder.merge(List.of(nodes0, nodes1))).extracting(r -> r.position().toString())
        .containsExactly("kvfleet.nodes-1@0", "kvfleet.nodes-0@0", "kvfleet.nodes-0@1");
  }

  @Test
  void readsAndWritesLogPositions() {
    var position = LogPosition.parse("kvfleet.nodes-12@4711");

    assertThat(position).isEqualTo(new LogPosition("kvfleet.nodes", 12, 4711));
    assertThat(position).hasToString("kvfleet.nodes-12@4711");
  }
}
