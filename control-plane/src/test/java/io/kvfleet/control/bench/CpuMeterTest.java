package io.kvfleet.control.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CpuMeterTest {

  @Test
  void attributesThreadsToThePartTheyWorkFor() {
    assertThat(CpuMeter.part("data-plane-kafka-request-handler-3")).isEqualTo("broker");
    assertThat(CpuMeter.part("kafka-producer-network-thread | kvfleet-bench-router")).isEqualTo("producer i/o");
    assertThat(CpuMeter.part("kvfleet-publish-bench-coordinator")).isEqualTo("publishers");
    assertThat(CpuMeter.part("vert.x-kafka-consumer-thread-0")).isEqualTo("coordinator consumer");
    assertThat(CpuMeter.part("vert.x-eventloop-thread-1")).isEqualTo("event loops");
    assertThat(CpuMeter.part("vert.x-worker-thread-7")).isEqualTo("workers");
    assertThat(CpuMeter.part("bench-responder")).isEqualTo("raw responder");
    assertThat(CpuMeter.part("bench-terminals")).isEqualTo("bench readers");
    assertThat(CpuMeter.part("Signal Dispatcher")).isEqualTo("other");
  }

  @Test
  void accountsForTheWholeProcess() {
    var use = CpuMeter.start().stop();
    assertThat(use.total()).isGreaterThanOrEqualTo(0);
    assertThat(use.cores()).containsKeys("jit", "gc+other");
  }
}
