package io.kvfleet.control.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;

/**
 * {@code docker/compose.yaml} runs the secured shape (there is no Docker engine here, so its files are
 * checked instead): its ACL script grants exactly {@link FleetAcls}, every kvfleet service that talks
 * to Kafka is given its role's client properties ({@code ComposeSecretsIT} runs the secrets script).
 */
class ComposeSecurityTest {
  private static final Path DOCKER = Path.of("..", "docker");
  private static final Pattern ACL = Pattern.compile("acl (\\w+) (\\w+) (topic|group) '?([^' ]+)'?( prefixed)?");

  @Test
  void theAclScriptGrantsExactlyTheFleetAcls() throws Exception {
    Set<AclBinding> script = new HashSet<>();
    for (String line : Files.readAllLines(DOCKER.resolve("secure/acls.sh"))) {
      var m = ACL.matcher(line.strip());
      if (m.matches()) {
        var type = m.group(3).equals("topic") ? ResourceType.TOPIC : ResourceType.GROUP;
        var pattern = m.group(5) == null ? PatternType.LITERAL : PatternType.PREFIXED;
        script.add(new AclBinding(new ResourcePattern(type, m.group(4), pattern), new AccessControlEntry(
            "User:" + m.group(1), "*", AclOperation.fromString(m.group(2).toUpperCase(Locale.ROOT)),
            AclPermissionType.ALLOW)));
      }
    }
    assertThat(script).containsExactlyInAnyOrderElementsOf(FleetAcls.all());
  }

  /** The script made the topics with min.insync.replicas only: kept seven days, stamped by their writers. */
  @Test
  void theScriptMakesTheTopicsWithTheFleetTopicsSettings() throws Exception {
    String script = Files.readString(DOCKER.resolve("secure/acls.sh"));
    var config = Pattern.compile("--config ([\\w.]+)=(\\S+)").matcher(script);
    var settings = new java.util.HashMap<String, String>();
    while (config.find()) {
      settings.put(config.group(1), config.group(2));
    }
    assertThat(settings).isEqualTo(FleetTopics.config((short) 3));
  }

  @Test
  void everyKvfleetServiceTalksToKafkaWithItsRolesClientProperties() throws Exception {
    JsonNode services = new ObjectMapper(new YAMLFactory()).readTree(DOCKER.resolve("compose.yaml").toFile())
        .get("services");
    List<String> checked = new ArrayList<>();
    services.properties().forEach(service -> {
      List<String> command = new ArrayList<>();
      service.getValue().path("command").forEach(c -> command.add(c.asText()));
      if (command.contains("--bootstrap-servers")) {
        String role = switch (command.getFirst()) {
          case "coordinator" -> "coordinator";
          case "node" -> "node";
          default -> "observer";
        };
        int at = command.indexOf("--kafka-config");
        assertThat(at).as(service.getKey() + " is given --kafka-config").isPositive();
        assertThat(command.get(at + 1)).isEqualTo("/secrets/" + role + ".properties");
        checked.add(service.getKey());
      }
    });
    assertThat(checked).contains("coordinator", "prefill-0", "decode-0", "tail");
    for (String broker : List.of("kafka-1", "kafka-2", "kafka-3")) {
      assertThat(services.get(broker).get("command").toString())
          .contains("/secrets/" + broker + ".properties").contains("format.args");
    }
  }

  @Test
  void everyFleetMemberClosesTheBusAndSignsWithItsOwnKey() throws Exception {
    JsonNode services = new ObjectMapper(new YAMLFactory()).readTree(DOCKER.resolve("compose.yaml").toFile())
        .get("services");
    for (String member : List.of("coordinator", "prefill-0", "decode-0")) {
      List<String> command = new ArrayList<>();
      services.get(member).path("command").forEach(c -> command.add(c.asText()));
      String key = member.equals("coordinator") ? "coordinator-0" : member;
      assertThat(command).as(member).containsSubsequence("--cluster-tls-dir", "/secrets/bus/" + member)
          .containsSubsequence("--key", "/secrets/keys/" + key + ".key")
          .containsSubsequence("--trust", "/secrets/keys/trust.json");
    }
    assertThat(services.get("fleet-secrets").path("environment").path("MEMBERS").asText().split(" "))
        .containsExactlyInAnyOrder("coordinator", "prefill-0", "decode-0");
    assertThat(java.nio.file.Files.readString(DOCKER.resolve("Dockerfile"))).contains("docker/fleet-secrets.sh");
  }
}
