package io.kvfleet.control.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.events.Topics;
import io.vertx.kafka.client.common.TopicPartition;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the coordinator has watched of the node events, from its questions for the end offsets. */
class NodesViewTest {
  private static final long LEASE = 3_000;
  private static final TopicPartition NODES = new TopicPartition(Topics.NODES, 0);
  private final NodesView view = new NodesView();
  private final CatchUp folded = new CatchUp();
  private long end;

  @Test
  void judgesNothingBeforeItHasWatchedAWholeLease() {
    reading(0, 10);
    assertThat(view.outlived(-1, LEASE)).as("read up to 0, watched since 10").isFalse();

    for (long t = 1_000; t <= 4_000; t += 1_000) {
      reading(t, t + 10);
    }

    assertThat(view.outlived(3_999, LEASE)).as("watched 10..4000, lease ended before 4000").isTrue();
    assertThat(view.outlived(4_000, LEASE)).isFalse();
  }

  @Test
  void movesOnlyOnceEverythingBeforeTheAnsweredOffsetsIsFolded() {
    watchFrom0To(5_000);
    assertThat(view.ask(6_000)).isTrue();
    end += 5;
    view.answer(Map.of(NODES, end), 6_010);

    view.check(folded);
    assertThat(view.outlived(5_500, LEASE)).as("the records before the answer are not folded yet").isFalse();

    folded.advance(Topics.NODES, 0, end - 1);
    view.check(folded);
    assertThat(view.outlived(5_500, LEASE)).isTrue();
  }

  @Test
  void aSlowAnswerIsABreakAndTheWatchStartsAgainWhenItCame() {
    watchFrom0To(5_000);
    assertThat(view.ask(6_000)).isTrue();
    view.answer(Map.of(NODES, end), 16_000); // asked while the broker was down, answered after it came back
    view.check(folded);

    assertThat(view.outlived(5_500, LEASE)).as("heartbeats from the outage may have landed after the question")
        .isFalse();
    for (long t = 17_000; t <= 20_000; t += 1_000) {
      reading(t, t + 10);
    }
    assertThat(view.outlived(5_500, LEASE)).as("watched again since 17010 (the outage left a long step too):"
        + " not a whole lease yet").isFalse();
    reading(21_000, 21_010);
    assertThat(view.outlived(5_500, LEASE)).isTrue();
  }

  @Test
  void aLongStepBetweenTwoReadingsIsABreak() {
    watchFrom0To(5_000);
    assertThat(view.ask(6_000)).isTrue();
    view.answer(null, 6_010); // Kafka did not answer
    assertThat(view.ask(6_500)).as("asked half a second ago").isFalse();

    reading(12_000, 12_010);

    assertThat(view.outlived(5_500, LEASE)).isFalse();
  }

  /** Readings every second from 0 to {@code until}, each answered at once and folded. */
  private void watchFrom0To(long until) {
    for (long t = 0; t <= until; t += 1_000) {
      reading(t, t + 10);
    }
    assertThat(view.outlived(until - LEASE - 20, LEASE)).isTrue();
  }

  private void reading(long askedAt, long answeredAt) {
    assertThat(view.ask(askedAt)).isTrue();
    end++;
    view.answer(Map.of(NODES, end), answeredAt);
    folded.advance(Topics.NODES, 0, end - 1);
    view.check(folded);
  }
}
