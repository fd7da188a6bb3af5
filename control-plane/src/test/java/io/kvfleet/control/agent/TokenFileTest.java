package io.kvfleet.control.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.control.KvfleetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenFileTest {
  @TempDir Path dir;

  @Test
  void createsAnAbsentFileWithANewTokenReadableOnlyByItsOwner() throws Exception {
    Path file = dir.resolve("keys").resolve("node.api-token");

    var token = TokenFile.loadOrCreate(file);

    assertThat(token.value()).hasSize(64).matches("[0-9a-f]+");
    assertThat(Files.readString(file).strip()).isEqualTo(token.value());
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent()))).isEqualTo("rwx------");
    try (var left = Files.list(file.getParent())) {
      assertThat(left.toList()).containsExactly(file);
    }
  }

  @Test
  void readsTheSameTokenOnTheNextStart() {
    Path file = dir.resolve("node.api-token");
    var first = TokenFile.loadOrCreate(file);

    assertThat(TokenFile.loadOrCreate(file)).isEqualTo(first);
  }

  @Test
  void refusesAFileOthersMayRead() throws Exception {
    Path file = dir.resolve("node.api-token");
    TokenFile.loadOrCreate(file);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

    assertThatThrownBy(() -> TokenFile.loadOrCreate(file)).isInstanceOf(KvfleetException.class)
        .hasMessageContaining("may be used by others (rw-r--r--)").hasMessageContaining("chmod 600 " + file);
  }

  @Test
  void refusesAFileOfAnotherUser() throws Exception {
    Path file = dir.resolve("node.api-token");
    TokenFile.loadOrCreate(file);
    boolean root = Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
    Assumptions.assumeTrue(root, "giving the file to another user needs root; this test runs as a user");
    Files.setAttribute(file, "unix:uid", 65534);

    assertThatThrownBy(() -> TokenFile.loadOrCreate(file)).isInstanceOf(KvfleetException.class)
        .hasMessageContaining("belongs to uid 65534, not to uid 0");
  }

  @Test
  void refusesAnEmptyFileAndALink() throws Exception {
    Path empty = Files.createFile(dir.resolve("empty.api-token"), PosixFilePermissions.asFileAttribute(
        PosixFilePermissions.fromString("rw-------")));
    Path link = Files.createSymbolicLink(dir.resolve("link.api-token"), empty);

    assertThatThrownBy(() -> TokenFile.loadOrCreate(empty)).isInstanceOf(KvfleetException.class)
        .hasMessageContaining("is empty");
    assertThatThrownBy(() -> TokenFile.loadOrCreate(link)).isInstanceOf(KvfleetException.class)
        .hasMessageContaining("not a regular file");
  }

  @Test
  void defaultsToAFileNamedForTheNodeUnderTheUsersHome() {
    assertThat(TokenFile.defaultPath("prefill-0"))
        .isEqualTo(Path.of(System.getProperty("user.home"), ".kvfleet", "node-prefill-0.api-token"));
    assertThat(TokenFile.defaultPath("../x").getFileName().toString()).isEqualTo("node-.._x.api-token");
  }
}
