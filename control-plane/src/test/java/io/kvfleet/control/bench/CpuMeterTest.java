package io.kvfleet.control.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CpuMeterTest {

  @Test
  void attributesThreadsToThePartTheyWorkFor() {
    assertThat(CpuMeter.part("data-plane-kafka-request-handler-3")).isEqualTo("broker");
    assertThat(CpuMeter.part("kafka-producer-network-thread | kvfleet-bench-router")).isEqualTo("producer i/o");
    assertThat(CpuMeter.part("kvfleet-publish-bench-coordinator")).isEqualTo("publishers");
    assertThat(CpuMeter.part("vert.x-kafka-consumer-thread-0")).isEqualTo("vert.x kafka consumers");
    assertThat(CpuMeter.part("vert.x-eventloop-thread-1")).isEqualTo("event loops");
    assertThat(CpuMeter.part("vert.x-worker-thread-7")).isEqualTo("workers");
    assertThat(CpuMeter.part("bench-responder")).isEqualTo("raw responder");
    assertThat(CpuMeter.part("bench-terminals")).isEqualTo("bench readers");
    assertThat(CpuMeter.part("Signal Dispatcher")).isEqualTo("other");
  }

  @Test
  void countsOnlyThePausesOfG1AndZgcNotTheirConcurrentCycles() {
    assertThat(CpuMeter.isPauses("G1 Young Generation")).isTrue();
    assertThat(CpuMeter.isPauses("G1 Old Generation")).isTrue();
    assertThat(CpuMeter.isPauses("ZGC Minor Pauses")).isTrue();
    assertThat(CpuMeter.isPauses("ZGC Major Pauses")).isTrue();
    assertThat(CpuMeter.isPauses("G1 Concurrent GC")).isFalse();
    assertThat(CpuMeter.isPauses("ZGC Minor Cycles")).isFalse();
    assertThat(CpuMeter.isPauses("ZGC Major Cycles")).isFalse();
  }

  @Test
  void accountsForTheWholeProcess() {
    var use = CpuMeter.start().stop();
    assertThat(use.total()).isGreaterThanOrEqualTo(0);
    assertThat(use.cores()).containsKeys("jit", "gc+other");
  }

  @Test
  void countsTheCpuOfCompilerThreadsOnlyFromTheirStatLines() {
    String c2 = "4242 (C2 CompilerThre) S 1 4242 4242 0 -1 4194624 100 0 0 0 731 29 0 0 20 0 30 0 9 0 0";
    String eventLoop = "4243 (vert.x-eventloo) S 1 4242 4242 0 -1 4194624 100 0 0 0 500 20 0 0 20 0 30 0 9 0 0";
    assertThat(CompilerThreads.ticksOf(c2)).isEqualTo(760);
    assertThat(CompilerThreads.ticksOf(eventLoop)).isZero();
    assertThat(CompilerThreads.cpuNanos()).isGreaterThanOrEqualTo(0);
  }

  @Test
  void givesTheBrokerTheBenchsFlagsButNotItsDiagnostics() {
    assertThat(BrokerProcess.kept("--enable-native-access=ALL-UNNAMED")).isTrue();
    assertThat(BrokerProcess.kept("-XX:+UseZGC")).isTrue();
    assertThat(BrokerProcess.kept("-Xlog:jit+compilation=debug:file=jit.log")).isFalse();
    assertThat(BrokerProcess.kept("-XX:AOTCache=control-plane/target/kvfleet.aot")).isFalse();
    assertThat(BrokerProcess.kept("-XX:+PrintCompilation")).isFalse();
    assertThat(BrokerProcess.command()).contains("io.kvfleet.control.cli.Kvfleet", "kafka");
  }
}
