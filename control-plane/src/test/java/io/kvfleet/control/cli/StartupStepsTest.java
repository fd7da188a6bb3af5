package io.kvfleet.control.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.control.KvfleetException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StartupStepsTest {
  private final List<String> closed = new CopyOnWriteArrayList<>();
  private final CountDownLatch closings = new CountDownLatch(2);

  private void close(String made) {
    closed.add(made);
    closings.countDown();
  }

  @Test
  void answersEachStepsResultAndClosesNothingWhenTheStartGoesOn() throws Exception {
    var steps = new StartupSteps();
    var probe = steps.begin("probe", () -> "engine", this::close);
    var join = steps.begin("join", () -> "vertx", this::close);
    assertThat(probe.await(10)).isEqualTo("engine");
    assertThat(join.await(10)).isEqualTo("vertx");
    assertThat(closed).isEmpty();
  }

  @Test
  void throwsWhatTheStepThrewSoTheUserSeesItsMessage() {
    var steps = new StartupSteps();
    var kafka = steps.begin("kafka", () -> {
      throw KvfleetException.badInput("Kafka at 127.0.0.1:1 did not answer");
    }, this::close);
    assertThatThrownBy(() -> kafka.await(10)).isInstanceOf(KvfleetException.class)
        .hasMessageContaining("127.0.0.1:1");
  }

  @Test
  void abandoningClosesWhatFinishedAndWhatFinishesLater() throws Exception {
    var steps = new StartupSteps();
    var release = new CountDownLatch(1);
    var probe = steps.begin("probe", () -> "engine", this::close);
    probe.await(10);
    var join = steps.begin("join", () -> {
      release.await();
      return "vertx";
    }, this::close);
    steps.abandon();
    assertThat(closed).containsExactly("engine");
    release.countDown(); // the join ends after the start failed: the member it made must not stay
    assertThat(join.await(10)).isEqualTo("vertx");
    assertThat(closings.await(10, TimeUnit.SECONDS)).as("both closed").isTrue();
    assertThat(closed).containsExactly("engine", "vertx");
  }

  @Test
  void aStepThatFailedHasNothingToClose() {
    var steps = new StartupSteps();
    var join = steps.begin("join", () -> {
      throw new IllegalStateException("no cluster");
    }, this::close);
    assertThatThrownBy(() -> join.await(10)).isInstanceOf(IllegalStateException.class);
    steps.abandon();
    assertThat(closed).isEmpty();
  }
}
