package io.kvfleet.control.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.control.KvfleetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Client properties from a file reach every client of their cluster, and only of theirs. */
class KafkaClientsTest {
  @TempDir Path dir;

  @Test
  void aFilesPropertiesReachTheClientsOfItsClusterOnly() throws Exception {
    Path file = dir.resolve("client.properties");
    Files.writeString(file, """
        # the usual client.properties
        bootstrap.servers=elsewhere:9092
        security.protocol=SASL_SSL
        sasl.mechanism=SCRAM-SHA-512
        enable.idempotence=false
        """);
    KafkaClients.use("secured-a:9093", file);
    var config = KafkaClients.config("secured-a:9093", Map.of("enable.idempotence", true, "acks", "all"));
    assertThat(config).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism", "SCRAM-SHA-512")
        .containsEntry("bootstrap.servers", "secured-a:9093")
        .as("kvfleet's own settings win: its guarantees rest on them").containsEntry("enable.idempotence", true);
    assertThat(KafkaClients.config("plain-b:9092", Map.of("acks", "all")))
        .containsOnly(Map.entry("acks", "all"), Map.entry("bootstrap.servers", "plain-b:9092"));
    assertThat(KafkaClients.configured("secured-a:9093")).isTrue();
    assertThat(KafkaClients.configured("plain-b:9092")).isFalse();
  }

  @Test
  void aMissingFileIsBadInputNamingIt() {
    Path missing = dir.resolve("nope.properties");
    assertThatThrownBy(() -> KafkaClients.use("secured-c:9093", missing))
        .isInstanceOfSatisfying(KvfleetException.class, e -> assertThat(e.kind()).isEqualTo(KvfleetException.Kind.BAD_INPUT))
        .hasMessageContaining(missing.toString()).hasMessageContaining("no such file");
  }

  @Test
  void refusedCredentialsAndDeniedAclsAreRefusalsNotSilence() {
    var credentials = KvfleetException.kafkaUnreachable("secured-d:9093",
        new java.util.concurrent.ExecutionException(new SaslAuthenticationException("invalid credentials")));
    assertThat(credentials.kind()).isEqualTo(KvfleetException.Kind.KAFKA_REFUSED);
    assertThat(credentials).hasMessageContaining("--kafka-config");
    var denied = KvfleetException.kafkaUnreachable("secured-d:9093",
        new TopicAuthorizationException(java.util.Set.of("kvfleet.nodes")));
    assertThat(denied.kind()).isEqualTo(KvfleetException.Kind.KAFKA_REFUSED);
    assertThat(denied).hasMessageContaining("ACL");
  }
}
