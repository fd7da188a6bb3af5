package io.kvfleet.control.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.kafka.EmbeddedKafka;
import io.kvfleet.control.kafka.FleetTopics;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The bench runs end to end on the embedded broker: both systems answer in both phases. */
class FleetVsKafkaIT {

  @Test
  void measuresOursAndTheRawRoundTripInBothPhases() throws Exception {
    var settings = new BenchSettings(20, Duration.ofSeconds(2), Duration.ofSeconds(1), 4, 1, Duration.ofSeconds(60));
    var progress = new ByteArrayOutputStream();
    try (var kafka = EmbeddedKafka.startInTempDir()) {
      FleetTopics.ensure(kafka.bootstrapServers(), (short) 1);
      var report = new FleetVsKafka(kafka.bootstrapServers(), (short) 1, settings,
          new PrintStream(progress, true, StandardCharsets.UTF_8)).run();
      assertThat(report.results()).hasSize(4).allSatisfy(r -> {
        assertThat(r.latencyMicros().getTotalCount()).as(r.system() + " " + r.phase()).isPositive();
        assertThat(r.failed()).as(r.system() + " " + r.phase() + " failures").isZero();
      });
      assertThat(report.results()).extracting(PhaseResult::system)
          .containsExactly("kvfleet", "raw Kafka", "kvfleet", "raw Kafka");
      assertThat(report.results().get(0).answered()).isEqualTo(40);
      assertThat(report.format()).contains("ours/raw", "target:");
    }
  }
}
