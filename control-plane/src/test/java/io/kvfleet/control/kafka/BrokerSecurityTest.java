package io.kvfleet.control.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The secured broker's folder: made once with keytool, secrets for the owner only, one client file per role. */
class BrokerSecurityTest {
  @TempDir Path dir;

  @Test
  void makesAKeyATruststoreAndOneClientFilePerRoleThenReusesThem() throws Exception {
    var first = BrokerSecurity.prepare(dir, "127.0.0.1");
    for (KafkaRole role : KafkaRole.values()) {
      Path file = first.clientProperties(role);
      assertThat(Files.getPosixFilePermissions(file)).as(file.toString())
          .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
      var properties = KafkaClients.read(file);
      assertThat(properties).containsEntry("security.protocol", "SASL_SSL")
          .containsEntry("sasl.mechanism", "SCRAM-SHA-512");
      assertThat(properties.get("sasl.jaas.config")).contains("username=\"" + role.user() + "\"")
          .contains("password=\"" + first.password(role.user()) + "\"");
    }
    assertThat(Files.getPosixFilePermissions(dir.resolve("secrets.properties")))
        .isEqualTo(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
    assertThat(Files.getPosixFilePermissions(dir.resolve("broker.p12")))
        .isEqualTo(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
    var trust = KeyStore.getInstance("PKCS12");
    try (var in = Files.newInputStream(dir.resolve("truststore.p12"))) {
      trust.load(in, KafkaClients.read(first.clientProperties(KafkaRole.NODE)).get("ssl.truststore.password")
          .toCharArray());
    }
    var certificate = (X509Certificate) trust.getCertificate("kvfleet-broker");
    assertThat(certificate.getSubjectAlternativeNames()).extracting(n -> n.get(1).toString())
        .contains("127.0.0.1", "localhost");
    assertThat(trust.isKeyEntry("kvfleet-broker")).as("the truststore holds no private key").isFalse();

    var again = BrokerSecurity.prepare(dir, "127.0.0.1");
    assertThat(again.secrets()).isEqualTo(first.secrets());
  }

  @Test
  void formatsEveryUserWithScramSha512() {
    var security = BrokerSecurity.prepare(dir, "127.0.0.1");
    List<String> arguments = security.scramArguments();
    assertThat(arguments).hasSize(KafkaRole.values().length + 1)
        .allSatisfy(a -> assertThat(a).startsWith("SCRAM-SHA-512=[name="))
        .anySatisfy(a -> assertThat(a).contains("name=broker,"));
    assertThat(security.brokerConfig()).containsEntry("super.users", "User:admin;User:broker")
        .containsEntry("allow.everyone.if.no.acl.found", "false")
        .containsEntry("listener.security.protocol.map", "CLIENT:SASL_SSL,CONTROLLER:SASL_PLAINTEXT");
  }
}
