package io.kvfleet.engine.host;

import io.kvfleet.engine.internal.FileCalls;
import io.kvfleet.engine.internal.Libc;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Who holds a token: {@code /dev/shm/kvfleet-owner-<token>} says which process (pid and start
 * time) made the grants and allocations named with it. A peer learns the pid from this file, not
 * from a record, to tell when its owner is gone; a backend that opens sweeps the files of owners
 * that died without cleaning up (killed), so their memory does not stay in {@code /dev/shm}.
 */
final class Owners {
  private Owners() {}

  private static final String PREFIX = "kvfleet-owner-";

  /**
   * An owner: its pid, the start time {@code /proc/<pid>/stat} gives it, and its PID namespace (a
   * pid means something only there, so only a backend of that namespace judges it).
   */
  record Owner(int pid, long started, String namespace) {
    boolean alive() {
      return namespace.equals(NAMESPACE) && startTime(pid).map(s -> s == started).orElse(false);
    }

    /** Whether this process can tell that the owner is gone. */
    boolean judgeable() {
      return namespace.equals(NAMESPACE);
    }
  }

  private static final String NAMESPACE = namespace();

  /** Writes this process's owner file for {@code token}. */
  static void claim(long token) {
    int pid = Libc.getpid();
    String line = pid + " " + startTime(pid).orElse(0L) + " " + NAMESPACE + "\n";
    try {
      Files.writeString(file(token), line, StandardCharsets.US_ASCII,
          java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file(token) + ": " + e.getMessage(), e);
    }
  }

  /** Removes the owner file of {@code token}. */
  static void release(long token) {
    try {
      Files.deleteIfExists(file(token));
    } catch (IOException e) {
      // left for the next sweep
    }
  }

  /** The live owner of {@code token} on this host, if there is one. */
  static Optional<Owner> of(long token) {
    return read(file(token)).filter(Owner::alive);
  }

  /** Deletes the grants, allocations and owner files of owners that are gone. */
  static void sweep() {
    try (DirectoryStream<Path> owners = Files.newDirectoryStream(Grants.DIRECTORY, PREFIX + "*")) {
      for (Path owner : owners) {
        Optional<Owner> found = read(owner);
        if (found.isEmpty() || !found.get().judgeable() || found.get().alive()) {
          continue; // unreadable (being written), of another PID namespace, or alive
        }
        String token = owner.getFileName().toString().substring(PREFIX.length());
        deleteAll(Grants.PREFIX + token + "*");
        deleteAll(HostAllocation.PREFIX + token + "*");
        Files.deleteIfExists(owner);
      }
    } catch (IOException e) {
      // a sweep is best effort: another backend may be sweeping too
    }
  }

  private static void deleteAll(String glob) throws IOException {
    try (DirectoryStream<Path> files = Files.newDirectoryStream(Grants.DIRECTORY, glob)) {
      for (Path f : files) {
        Files.deleteIfExists(f);
      }
    }
  }

  private static Path file(long token) {
    return Grants.DIRECTORY.resolve(PREFIX + HexFormat.of().toHexDigits(token));
  }

  private static Optional<Owner> read(Path file) {
    try {
      if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
          || (int) Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS) != FileCalls.geteuid()) {
        return Optional.empty(); // only a file of this user says who owns this user's grants
      }
      String[] words = Files.readString(file, StandardCharsets.US_ASCII).trim().split(" ");
      return Optional.of(new Owner(Integer.parseInt(words[0]), Long.parseLong(words[1]), words[2]));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** This process's PID namespace, e.g. {@code pid:[4026531836]}. */
  private static String namespace() {
    try {
      return Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
    } catch (IOException | UnsupportedOperationException e) {
      return "unknown";
    }
  }

  /** Field 22 of {@code /proc/<pid>/stat}, the process's start time in clock ticks. */
  private static Optional<Long> startTime(int pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"), StandardCharsets.US_ASCII);
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Optional.of(Long.parseLong(fields[19]));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
