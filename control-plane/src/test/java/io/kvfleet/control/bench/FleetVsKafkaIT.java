package io.kvfleet.control.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.kafka.EmbeddedKafka;
import io.kvfleet.control.kafka.FleetTopics;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The bench runs end to end on the embedded broker: the three systems answer in both phases. */
class FleetVsKafkaIT {

  @Test
  void measuresOursTheRawRoundTripAndTheRawThreeHopChainInBothPhases() throws Exception {
    var settings = new BenchSettings(20, Duration.ofSeconds(2), Duration.ofSeconds(1), 4, 1, Duration.ofSeconds(60));
    var progress = new ByteArrayOutputStream();
    try (var kafka = EmbeddedKafka.startInTempDir()) {
      FleetTopics.ensure(kafka.bootstrapServers(), (short) 1);
      var report = new FleetVsKafka(kafka.bootstrapServers(), (short) 1, settings,
          new PrintStream(progress, true, StandardCharsets.UTF_8)).withAgents(4).run();
      assertThat(report.results()).hasSize(6).allSatisfy(r -> {
        assertThat(r.latencyMicros().getTotalCount()).as(r.system() + " " + r.phase()).isPositive();
        assertThat(r.failed()).as(r.system() + " " + r.phase() + " failures").isZero();
      });
      assertThat(report.results()).extracting(PhaseResult::system)
          .containsExactly("kvfleet", "raw Kafka", "raw 3-hop", "kvfleet", "raw Kafka", "raw 3-hop");
      assertThat(report.results().get(0).answered()).isEqualTo(40);
      assertThat(report.format()).contains("4 node agents", "ours/raw", "ours/3-hop", "3-hop/raw", "target:");
      assertThat(report.format()).containsPattern("dispatched [1-9][0-9]+ B");
    }
  }
}
