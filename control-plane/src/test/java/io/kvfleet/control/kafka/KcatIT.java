package io.kvfleet.control.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvfleet.events.EventType;
import io.kvfleet.events.Samples;
import io.kvfleet.events.Topics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A client outside the JVM (Debian's kcat) reads the fleet topics of the embedded broker and gets
 * CloudEvents JSON with the documented attributes. Skipped, with a message, where kcat is absent.
 */
class KcatIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  static EmbeddedKafka kafka;

  @BeforeAll
  static void startBroker() {
    kafka = EmbeddedKafka.startInTempDir();
    FleetTopics.ensure(kafka.bootstrapServers(), (short) 1);
  }

  @AfterAll
  static void stopBroker() {
    kafka.close();
  }

  @Test
  void kcatReadsEveryEventAsCloudEventsJson() throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/kcat")),
        "SKIPPED: kcat is not installed (apt-get install kcat); .ci/run installs it");
    try (var publisher = new EventPublisher(kafka.bootstrapServers(), "kcat-check", 2, Clock.systemUTC())) {
      for (EventType type : EventType.values()) {
        publisher.publish(Samples.of(type), "corr-" + type.ordinal()).get();
      }
    }
    List<JsonNode> documents = new ArrayList<>();
    for (String topic : Topics.ALL) {
      for (String line : kcat(topic)) {
        documents.add(JSON.readTree(line));
      }
    }
    assertThat(documents).hasSize(EventType.values().length);
    assertThat(documents).extracting(d -> d.get("type").asText())
        .containsExactlyInAnyOrderElementsOf(Arrays.stream(EventType.values()).map(EventType::wireName).toList());
    for (JsonNode d : documents) {
      assertThat(d.get("specversion").asText()).isEqualTo("1.0");
      assertThat(d.get("source").asText()).isEqualTo("/kvfleet/kcat-check");
      assertThat(d.get("datacontenttype").asText()).isEqualTo("application/json");
      assertThat(d.get("producer").asText()).isEqualTo("kcat-check");
      assertThat(d.get("epoch").asLong()).isEqualTo(2);
      assertThat(d.get("sequence").asLong()).isBetween(1L, (long) EventType.values().length);
      assertThat(d.get("schemaversion").asInt()).isEqualTo(
          EventType.byWireName(d.get("type").asText()).map(t -> Samples.of(t).schemaVersion()).orElseThrow());
      assertThat(d.get("correlationid").asText()).startsWith("corr-");
      assertThat(d.get("id").asText()).isNotBlank();
      assertThat(d.get("time").asText()).matches("\\d{4}-\\d{2}-\\d{2}T.*Z");
      assertThat(d.get("subject").asText()).isNotBlank();
      assertThat(d.get("data").isObject()).isTrue();
    }
  }

  private static List<String> kcat(String topic) throws IOException, InterruptedException {
    var process = new ProcessBuilder("kcat", "-C", "-b", kafka.bootstrapServers(), "-t", topic, "-e", "-q")
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("kcat finished").isTrue();
    assertThat(process.exitValue()).as("kcat exit code").isZero();
    return out.lines().filter(l -> !l.isBlank()).toList();
  }
}
