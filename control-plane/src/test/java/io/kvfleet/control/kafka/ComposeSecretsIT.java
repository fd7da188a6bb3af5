package io.kvfleet.control.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code docker/secure/init.sh}, the compose file's secrets, run as a process with the JDK's keytool:
 * broker certificates signed by a CA the clients' truststore holds, the CA's key gone, a client
 * properties file per role, the brokers' secured listeners.
 */
class ComposeSecretsIT {
  private static final Path DOCKER = Path.of("..", "docker");
  @TempDir Path dir;

  @Test
  void theSecretsScriptMakesBrokerCertificatesSignedByTheCaTheClientsTrust() throws Exception {
    var process = new ProcessBuilder("sh", DOCKER.resolve("secure/init.sh").toString()).redirectErrorStream(true);
    process.environment().put("SECRETS", dir.toString());
    process.environment().put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":"
        + System.getenv("PATH"));
    var run = process.start();
    String output = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(run.waitFor(5, TimeUnit.MINUTES)).isTrue();
    assertThat(run.exitValue()).as(output).isZero();
    var node = KafkaClients.read(dir.resolve("node.properties"));
    assertThat(node).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism", "SCRAM-SHA-512");
    var trust = KeyStore.getInstance("PKCS12");
    try (var in = Files.newInputStream(dir.resolve("truststore.p12"))) {
      trust.load(in, node.get("ssl.truststore.password").toCharArray());
    }
    var ca = (X509Certificate) trust.getCertificate("kvfleet-ca");
    var broker = (X509Certificate) java.security.cert.CertificateFactory.getInstance("X.509")
        .generateCertificate(Files.newInputStream(dir.resolve("kafka-2.crt")));
    broker.verify(ca.getPublicKey());
    assertThat(broker.getSubjectAlternativeNames()).extracting(n -> n.get(1).toString()).containsExactly("kafka-2");
    assertThat(dir.resolve("ca.p12")).as("the CA's key is gone once it signed").doesNotExist();
    assertThat(Files.readString(dir.resolve("kafka-2.properties")))
        .contains("listener.security.protocol.map=CLIENT:SASL_SSL,CONTROLLER:SASL_PLAINTEXT")
        .contains("authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer");
  }
}
