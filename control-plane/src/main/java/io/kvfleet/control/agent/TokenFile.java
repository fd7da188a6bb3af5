package io.kvfleet.control.agent;

import io.kvfleet.control.KvfleetException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * The file holding an agent's API token: created with a new token (mode 0600, its directory 0700)
 * when absent, else read; refused when anyone but its owner may read or write it, as ssh refuses a
 * private key others can read.
 */
public final class TokenFile {
  private static final Set<PosixFilePermission> OTHERS = EnumSet.of(
      PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
      PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

  private TokenFile() {}

  /** Where {@code nodeId}'s token lives when no file is given: {@code ~/.kvfleet/node-<id>.api-token}. */
  public static Path defaultPath(String nodeId) {
    return Path.of(System.getProperty("user.home"), ".kvfleet",
        "node-" + nodeId.replaceAll("[^A-Za-z0-9._-]", "_") + ".api-token");
  }

  /** The token in {@code file}, which is created with a new one when absent. */
  public static ApiCredential loadOrCreate(Path file) {
    try {
      if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
        create(file);
      }
      checkPrivate(file);
      String text = Files.readString(file, StandardCharsets.UTF_8).strip();
      if (text.isEmpty()) {
        throw KvfleetException.badInput("the agent API token file " + file + " is empty");
      }
      return new ApiCredential(text);
    } catch (IOException e) {
      throw KvfleetException.badInput("cannot use the agent API token file " + file + ": " + e);
    } catch (UnsupportedOperationException e) {
      throw KvfleetException.badInput("the agent API token file " + file
          + " is on a file system without POSIX permissions, so it cannot be kept private");
    }
  }

  /** Writes a new token beside {@code file} and links it in place, so a racing start sees all of it or nothing. */
  private static void create(Path file) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    if (!Files.isDirectory(dir)) {
      Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
    Path temporary = Files.createTempFile(dir, ".api-token", ".new",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try {
      Files.writeString(temporary, ApiCredential.random().value() + "\n", StandardCharsets.UTF_8);
      Files.createLink(file, temporary);
    } catch (FileAlreadyExistsException raced) {
      // another start of this node made it first: use theirs
    } finally {
      Files.deleteIfExists(temporary);
    }
  }

  private static void checkPrivate(Path file) throws IOException {
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      throw KvfleetException.badInput("the agent API token file " + file + " is not a regular file (a link?)");
    }
    var open = EnumSet.copyOf(Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS));
    open.retainAll(OTHERS);
    if (!open.isEmpty()) {
      throw KvfleetException.badInput("the agent API token file " + file + " may be used by others ("
          + PosixFilePermissions.toString(Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS))
          + "): run chmod 600 " + file);
    }
    // The process's own uid is the owner of /proc/self (user.name may name no account in a container).
    Object owner = Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    Object me = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    if (!owner.equals(me)) {
      throw KvfleetException.badInput("the agent API token file " + file + " belongs to uid " + owner
          + ", not to uid " + me + " who runs this agent");
    }
  }
}
