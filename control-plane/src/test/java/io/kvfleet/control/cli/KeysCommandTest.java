package io.kvfleet.control.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvfleet.control.replay.Cli;
import io.kvfleet.events.trust.FleetKey;
import io.kvfleet.events.trust.Role;
import io.kvfleet.events.trust.TrustFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kvfleet keys new} makes keys that load and a trust file that binds them; bad keys are refused at start. */
class KeysCommandTest {
  @TempDir Path dir;

  @Test
  void makesAnOwnerOnlyKeyAndAddsItsBindingToTheTrustFile() throws Exception {
    var first = Cli.run("keys", "new", "--id", "prefill-0", "--role", "node", "--dir", dir.toString());
    var second = Cli.run("keys", "new", "--id", "coordinator-0", "--role", "coordinator", "--producer",
        "coordinator-0,coordinator-1", "--dir", dir.toString());

    assertThat(first.exitCode()).as(first.err()).isZero();
    assertThat(second.exitCode()).as(second.err()).isZero();
    Path key = dir.resolve("prefill-0.key");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key))).isEqualTo("rw-------");
    var trust = TrustFile.load(dir.resolve("trust.json"));
    var node = trust.binding("prefill-0").orElseThrow();
    assertThat(node.role()).isEqualTo(Role.NODE);
    assertThat(node.nodes()).containsExactly("prefill-0");
    assertThat(trust.binding("coordinator-0").orElseThrow().producers())
        .containsExactlyInAnyOrder("coordinator-0", "coordinator-1");
    byte[] bytes = "x".getBytes(StandardCharsets.UTF_8);
    assertThat(trust.verify("prefill-0", bytes, FleetKey.load(key).sign(bytes))).isTrue();
  }

  @Test
  void refusesAnUnknownRoleOrAnIdThatIsNotAFileName() {
    var role = Cli.run("keys", "new", "--id", "x", "--role", "admin", "--dir", dir.toString());
    var id = Cli.run("keys", "new", "--id", "../x", "--role", "node", "--dir", dir.toString());

    assertThat(role.exitCode()).isEqualTo(2);
    assertThat(role.err()).contains("--role 'admin' is not one of node, coordinator, router");
    assertThat(id.exitCode()).isEqualTo(2);
    assertThat(id.err()).contains("--id '../x' may hold only");
  }

  @Test
  void aProcessGivenATrustFileButNoKeyRefusesToStart() {
    var run = Cli.run("coordinator", "--bootstrap-servers", "127.0.0.1:1", "--trust", dir.resolve("trust.json").toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("--trust needs --key").doesNotContain("\tat ");
  }

  @Test
  void aKeyOthersCanReadOrOneMissingFromTheTrustFileIsRefusedAtStart() throws Exception {
    Cli.run("keys", "new", "--id", "prefill-0", "--role", "node", "--dir", dir.toString());
    FleetKey.generate("decode-0").save(dir.resolve("decode-0.key"));
    Path trust = dir.resolve("trust.json");
    var unlisted = Cli.run("node", "--id", "decode-0", "--bootstrap-servers", "127.0.0.1:1", "--key",
        dir.resolve("decode-0.key").toString(), "--trust", trust.toString());
    Files.setPosixFilePermissions(dir.resolve("prefill-0.key"), PosixFilePermissions.fromString("rw-r--r--"));
    var exposed = Cli.run("node", "--id", "prefill-0", "--bootstrap-servers", "127.0.0.1:1", "--key",
        dir.resolve("prefill-0.key").toString(), "--trust", trust.toString());

    assertThat(unlisted.exitCode()).isEqualTo(2);
    assertThat(unlisted.err()).contains("key 'decode-0'").contains("is not in");
    assertThat(exposed.exitCode()).isEqualTo(2);
    assertThat(exposed.err()).contains("readable by group or others").contains("chmod 600");
  }

  /**
   * A node started with another node's key, or a router's, said "joined" while every verifying reader refused its
   * every event (EVENT_WRONG_PRODUCER, EVENT_WRONG_ROLE). It is refused at start, saying which key to make.
   */
  @Test
  void aNodeWhoseKeyMayNotSpeakForItIsRefusedAtStart() throws Exception {
    Cli.run("keys", "new", "--id", "decode-0", "--role", "node", "--dir", dir.toString());
    Cli.run("keys", "new", "--id", "router-0", "--role", "router", "--dir", dir.toString());
    Path trust = dir.resolve("trust.json");

    var anotherNodes = Cli.run("node", "--id", "decode-1", "--bootstrap-servers", "127.0.0.1:1", "--key",
        dir.resolve("decode-0.key").toString(), "--trust", trust.toString());
    var aRouters = Cli.run("node", "--id", "router-0", "--bootstrap-servers", "127.0.0.1:1", "--key",
        dir.resolve("router-0.key").toString(), "--trust", trust.toString());

    assertThat(anotherNodes.exitCode()).isEqualTo(2);
    assertThat(anotherNodes.err()).contains("key 'decode-0'", "may not write as 'decode-1'",
        "kvfleet keys new --id decode-1 --role node --dir " + dir.toAbsolutePath());
    assertThat(aRouters.exitCode()).isEqualTo(2);
    assertThat(aRouters.err()).contains("key 'router-0'", "is a router key, and node router-0 needs a node key");
  }
}
