package io.kvfleet.control.agent;

import io.kvfleet.control.KvfleetException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystemException;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The file holding an agent's API token: created with a new token (mode 0600, its directory 0700)
 * when absent, else read; refused when anyone but its owner may read or write it, as ssh refuses a
 * private key others can read, or when a directory above it lets others swap it (ssh's StrictModes).
 * It is read without following a link, and must be the file checked.
 */
public final class TokenFile {
  private static final int OTHERS = 0077;
  private static final int OTHERS_WRITE = 0022;
  private static final int STICKY = 01000;
  /** The longest token file read (a token is 43 characters). */
  private static final int MAX_BYTES = 4096;

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
    int me = euid();
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
   * Reads {@code file} without following a link, after checking it (a regular file, only its owner's, owned by
   * this agent's uid); the name must still be that file once read. The directory check above is what keeps
   * others from swapping it between the two: no one but this user and root may write a directory on the way.
   */
  private static String readPrivate(Path file) throws IOException {
    Map<String, Object> checked = privateAttributes(file);
    byte[] text;
    try (SeekableByteChannel channel = Files.newByteChannel(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      ByteBuffer buffer = ByteBuffer.allocate(MAX_BYTES + 1);
      while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
        // until the end of the file, or past what a token may be
      }
      if (!buffer.hasRemaining()) {
        throw KvfleetException.badInput("the agent API token file " + file + " is longer than " + MAX_BYTES + " bytes");
      }
      text = java.util.Arrays.copyOf(buffer.array(), buffer.position());
    } catch (FileSystemException e) {
      throw KvfleetException.badInput("the agent API token file " + file + " is not a regular file (a link?): " + e.getReason());
    }
    Object named = Files.getAttribute(file, "unix:ino", LinkOption.NOFOLLOW_LINKS);
    if (!checked.get("ino").equals(named)) {
      throw KvfleetException.badInput("the agent API token file " + file + " was replaced while it was read");
    }
    return new String(text, StandardCharsets.UTF_8);
  }

  private static Map<String, Object> privateAttributes(Path file) throws IOException {
    Map<String, Object> attributes = Files.readAttributes(file, "unix:mode,uid,ino,isRegularFile", LinkOption.NOFOLLOW_LINKS);
    if (!(Boolean) attributes.get("isRegularFile")) {
      throw KvfleetException.badInput("the agent API token file " + file + " is not a regular file (a link?)");
    }
    int mode = (int) attributes.get("mode");
    if ((mode & OTHERS) != 0) {
      throw KvfleetException.badInput("the agent API token file " + file + " may be used by others ("
          + permissions(mode) + "): run chmod 600 " + file);
    }
    int uid = (int) attributes.get("uid");
    int me = euid();
    if (uid != me) {
      throw KvfleetException.badInput("the agent API token file " + file + " belongs to uid " + uid
          + ", not to uid " + me + " who runs this agent");
    }
    return attributes;
  }

  /** This process's effective uid: the owner of its own {@code /proc/self}. */
  private static int euid() throws IOException {
    return (int) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
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
