package io.kvfleet.control.agent;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.control.KvfleetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Red team (att2). TokenFile refuses a token file others may read or write, or that is a link, but not one in a
 * directory others may write (e.g. {@code --api-token-file /shared/tokens/node.api-token} in a group- or
 * world-writable directory without the sticky bit, or a {@code ~/.kvfleet} made 0777 before the agent first ran).
 * There another user renames the agent's file away and puts a link to a file of their own in its place between
 * {@code checkPrivate} (which looks with NOFOLLOW_LINKS) and {@code Files.readString} (which follows links): the
 * agent then takes the other user's token, which that user knows, and serves its memory API to them. The check and
 * the read look at two different files; ssh's StrictModes refuses such directories for this reason.
 */
class TokenDirectoryAttackTest {
  @TempDir Path dir;

  @Test
  void refusesATokenFileInADirectoryOthersMayWrite() throws Exception {
    Path shared = Files.createDirectory(dir.resolve("shared"));
    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx")); // no sticky bit
    Path file = shared.resolve("node.api-token");
    Files.writeString(file, "a".repeat(64) + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));

    assertThatThrownBy(() -> TokenFile.loadOrCreate(file))
        .as("a token file whose directory any user may write (anyone can swap the file between check and read)")
        .isInstanceOf(KvfleetException.class);
  }
}
