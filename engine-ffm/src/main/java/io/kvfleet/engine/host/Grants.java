package io.kvfleet.engine.host;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * The names of host grants: hard links in {@code /dev/shm} named {@code kvfleet-grant-} and 32 hex
 * digits, the first 16 the granting backend's token, the other 16 random, so 128 bits no peer can
 * guess. Only names of this form are ever opened by a reading side; creating one is creating the
 * right to reach the file's memory, unlinking it is taking the right back.
 */
final class Grants {
  private Grants() {}

  static final Path DIRECTORY = Path.of("/dev/shm");
  static final String PREFIX = "kvfleet-grant-";
  private static final Pattern NAME = Pattern.compile("kvfleet-grant-[0-9a-f]{32}");
  private static final SecureRandom RANDOM = new SecureRandom();

  /** A new random 64-bit token for one backend. */
  static long newToken() {
    return RANDOM.nextLong();
  }

  /** Whether {@code name} is a grant's name (and nothing else: no path, no other object). */
  static boolean isGrantName(String name) {
    return NAME.matcher(name).matches();
  }

  /** Whether {@code name} is a grant made by the backend of {@code token}. */
  static boolean madeBy(String name, long token) {
    return isGrantName(name) && name.startsWith(PREFIX + HexFormat.of().toHexDigits(token));
  }

  /** A new name for a grant of the backend of {@code token}. */
  static String newName(long token) {
    return PREFIX + HexFormat.of().toHexDigits(token) + HexFormat.of().toHexDigits(RANDOM.nextLong());
  }

  /** Grants {@code file} (a file in {@code /dev/shm}) under a new name; returns the name. */
  static String grant(Path file, long token) {
    String name = newName(token);
    try {
      Files.createLink(DIRECTORY.resolve(name), file);
      return name;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot grant " + file + " as " + name + ": " + e.getMessage(), e);
    }
  }

  /** Takes the grant back; idempotent. */
  static void revoke(String name) {
    try {
      Files.deleteIfExists(DIRECTORY.resolve(name));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot revoke grant " + name + ": " + e.getMessage(), e);
    }
  }

  /** Where grant {@code name} is. */
  static Path path(String name) {
    return DIRECTORY.resolve(name);
  }
}
