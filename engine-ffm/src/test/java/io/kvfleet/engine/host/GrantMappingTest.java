package io.kvfleet.engine.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kvfleet.engine.internal.FileCalls;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The reading side's rules for a grant: its name, what the name opens, who owns it, how large it is. */
class GrantMappingTest {
  private final long token = Grants.newToken();
  private final List<Path> made = new ArrayList<>();

  @AfterEach
  void removeFiles() throws IOException {
    for (Path p : made) {
      Files.deleteIfExists(p);
    }
  }

  @Test
  void opensOnlyNamesOfTheGrantPattern() throws IOException {
    Path other = file("kvfleet-test-" + Grants.newName(token).substring(14), 4096);
    for (String name : List.of(other.getFileName().toString(), "../../etc/passwd", "/etc/passwd",
        Grants.newName(token) + "/x", Grants.newName(token).substring(0, 45) + "g", "")) {
      assertThat(GrantMapping.open(name, 0, 4096)).as(name)
          .isInstanceOfSatisfying(GrantMapping.Refused.class, r ->
              assertThat(r.detail()).contains("is not a kvfleet grant"));
    }
  }

  @Test
  void mapsARegularFileOfItsOwnUserCoveringTheRange() throws IOException {
    String name = Grants.newName(token);
    file(name, 3 * 4096);
    var opened = GrantMapping.open(name, 4096 + 100, 8000);
    assertThat(opened).isInstanceOfSatisfying(GrantMapping.Mapped.class, m -> {
      assertThat(m.mapping().segment().byteSize()).isEqualTo(8000);
      assertThat(m.mapping().revoked()).isNull();
      m.mapping().close();
    });
  }

  @Test
  void refusesASymbolicLinkNamedLikeAGrant() throws IOException {
    Path target = file("kvfleet-test-target-" + token, 4096);
    Path link = Grants.path(Grants.newName(token));
    Files.createSymbolicLink(link, target);
    made.add(link);
    assertThat(GrantMapping.open(link.getFileName().toString(), 0, 4096))
        .isInstanceOfSatisfying(GrantMapping.Refused.class, r ->
            assertThat(r.detail()).contains("cannot be opened").contains("errno 40"));
  }

  @Test
  void refusesARangePastTheEndOfTheGrant() throws IOException {
    String name = Grants.newName(token);
    file(name, 4096);
    assertThat(GrantMapping.open(name, 0, 4097))
        .isInstanceOfSatisfying(GrantMapping.Refused.class, r ->
            assertThat(r.detail()).contains("has 4096 bytes, the range needs 4097"));
    assertThat(GrantMapping.open(name, Long.MAX_VALUE, 2))
        .isInstanceOfSatisfying(GrantMapping.Refused.class, r ->
            assertThat(r.detail()).contains("is no range"));
  }

  @Test
  void refusesADirectoryNamedLikeAGrant() throws IOException {
    Path directory = Grants.path(Grants.newName(token));
    Files.createDirectory(directory);
    made.add(directory);
    assertThat(GrantMapping.open(directory.getFileName().toString(), 0, 1))
        .isInstanceOf(GrantMapping.Refused.class);
  }

  @Test
  void refusesAGrantOwnedByAnotherUser() throws IOException {
    assumeTrue(FileCalls.geteuid() == 0,
        "only root can give a file to another user; this test runs as uid " + FileCalls.geteuid());
    String name = Grants.newName(token);
    Path grant = file(name, 4096);
    UserPrincipalLookupService users = grant.getFileSystem().getUserPrincipalLookupService();
    Files.setOwner(grant, users.lookupPrincipalByName("nobody"));
    assertThat(GrantMapping.open(name, 0, 4096))
        .isInstanceOfSatisfying(GrantMapping.Refused.class, r ->
            assertThat(r.detail()).contains("is owned by uid").contains("not by this process's uid 0"));
  }

  @Test
  void refusesANameThatIsGone() {
    assertThat(GrantMapping.open(Grants.newName(token), 0, 4096))
        .isInstanceOfSatisfying(GrantMapping.Refused.class, r ->
            assertThat(r.detail()).contains("deregistered, or never made"));
  }

  @Test
  void saysAMappingIsRevokedOnceItsNameIsUnlinkedOrShrinks() throws IOException {
    String name = Grants.newName(token);
    Path grant = file(name, 8192);
    var mapping = ((GrantMapping.Mapped) GrantMapping.open(name, 0, 8192)).mapping();
    try (var channel = java.nio.channels.FileChannel.open(grant, java.nio.file.StandardOpenOption.WRITE)) {
      channel.truncate(4096);
    }
    assertThat(mapping.revoked()).contains("shrank to 4096 bytes");
    Grants.revoke(name);
    assertThat(mapping.revoked()).contains("is gone");
    mapping.close();
  }

  @Test
  void aCopyFromAGrantTruncatedAfterItWasMappedThrowsInsteadOfKillingTheProcess() throws IOException {
    String name = Grants.newName(token);
    Path grant = file(name, 8192);
    var mapping = ((GrantMapping.Mapped) GrantMapping.open(name, 0, 8192)).mapping();
    try (var channel = java.nio.channels.FileChannel.open(grant, java.nio.file.StandardOpenOption.WRITE)) {
      channel.truncate(0);
    }
    byte[] into = new byte[8192];
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> java.lang.foreign.MemorySegment.copy(
            mapping.segment(), java.lang.foreign.ValueLayout.JAVA_BYTE, 0, into, 0, 8192))
        .isInstanceOf(InternalError.class);
    mapping.close();
  }

  private Path file(String name, long size) throws IOException {
    Path path = Grants.path(name);
    made.add(path);
    try (var channel = java.nio.channels.FileChannel.open(path, java.nio.file.StandardOpenOption.CREATE_NEW,
        java.nio.file.StandardOpenOption.WRITE)) {
      channel.write(java.nio.ByteBuffer.allocate(1), size - 1);
    }
    return path;
  }
}
