package io.kvfleet.control.agent;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.engine.internal.FileCalls;
import io.kvfleet.engine.internal.Libc;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The file holding an agent's API token: created with a new token (mode 0600, its directory 0700)
 * when absent, else read; refused when anyone but its owner may read or write it, as ssh refuses a
 * private key others can read, or when a directory above it lets others swap it (ssh's StrictModes).
 * It is opened once, without following a link, and the checks are of that open file, the one read.
 */
public final class TokenFile {
  private static final int OTHERS = 0077;
  private static final int OTHERS_WRITE = 0022;
  private static final int STICKY = 01000;
  private static final int ELOOP = 40;

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
      checkDirectories(file.toAbsolutePath().getParent(), file);
      String text = readPrivate(file).strip();
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
    checkDirectories(dir, file); // a token written where others may swap it would be refused anyway: write none
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

  /**
   * Refuses {@code dir} when it, or a directory above it, may be written by a user other than this agent's and
   * root without the sticky bit: such a user renames the token file away and puts their own (or a link) in its
   * place. Both the directories as named and as resolved are checked, so a link on the way is covered too.
   */
  private static void checkDirectories(Path dir, Path file) throws IOException {
    int me = FileCalls.geteuid();
    for (Path chain : new Path[] {dir.toAbsolutePath().normalize(), dir.toRealPath()}) {
      for (Path d = chain; d != null; d = d.getParent()) {
        int uid = (int) Files.getAttribute(d, "unix:uid");
        int mode = (int) Files.getAttribute(d, "unix:mode");
        if (uid != me && uid != 0) {
          throw KvfleetException.badInput("the agent API token file " + file + " is in " + d + ", which belongs"
              + " to uid " + uid + ", not to uid " + me + " who runs this agent (nor to root): that user may swap it");
        }
        if ((mode & OTHERS_WRITE) != 0 && (mode & STICKY) == 0) {
          throw KvfleetException.badInput("the agent API token file " + file + " is in " + d + ", which others"
              + " may write (" + permissions(mode) + ", no sticky bit), so they may swap it: run chmod go-w " + d
              + " or keep the token elsewhere");
        }
      }
    }
  }

  /**
   * Opens {@code file} once without following a link, checks that open file (a regular file, only its owner's,
   * owned by this agent's uid) and reads it through the same descriptor; the name must still be that file.
   */
  private static String readPrivate(Path file) throws IOException {
    Libc.Result open = FileCalls.open(file.toString(), Libc.O_RDONLY | FileCalls.O_NOFOLLOW | FileCalls.O_CLOEXEC);
    if (open.value() < 0) {
      if (open.errno() == ELOOP) {
        throw KvfleetException.badInput("the agent API token file " + file + " is not a regular file (a link?)");
      }
      throw new IOException("open: " + Libc.strerror(open.errno()));
    }
    int fd = (int) open.value();
    try {
      checkPrivate(file, fd);
      Path opened = Path.of("/proc/self/fd/" + fd); // the open file itself, whatever its name now names
      String text = Files.readString(opened, StandardCharsets.UTF_8);
      Object read = Files.readAttributes(opened, BasicFileAttributes.class).fileKey();
      Object named = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
      if (read == null || !read.equals(named)) {
        throw KvfleetException.badInput("the agent API token file " + file + " was replaced while it was read"
            + " (file " + read + ", now named " + named + ")");
      }
      return text;
    } finally {
      Libc.close(fd);
    }
  }

  private static void checkPrivate(Path file, int fd) throws IOException {
    FileCalls.StatResult result = FileCalls.fstat(fd);
    if (result.stat() == null) {
      throw new IOException("fstat: " + Libc.strerror(result.errno()));
    }
    FileCalls.Stat stat = result.stat();
    if (!stat.regular()) {
      throw KvfleetException.badInput("the agent API token file " + file + " is not a regular file (a link?)");
    }
    if ((stat.mode() & OTHERS) != 0) {
      throw KvfleetException.badInput("the agent API token file " + file + " may be used by others ("
          + permissions(stat.mode()) + "): run chmod 600 " + file);
    }
    int me = FileCalls.geteuid();
    if (stat.uid() != me) {
      throw KvfleetException.badInput("the agent API token file " + file + " belongs to uid " + stat.uid()
          + ", not to uid " + me + " who runs this agent");
    }
  }

  /** {@code mode}'s permission bits as {@code ls} writes them, e.g. {@code rw-r--r--}. */
  private static String permissions(int mode) {
    StringBuilder text = new StringBuilder(9);
    for (int bit = 8; bit >= 0; bit--) {
      text.append((mode >> bit & 1) != 0 ? "rwx".charAt(2 - bit % 3) : '-');
    }
    return text.toString();
  }
}
