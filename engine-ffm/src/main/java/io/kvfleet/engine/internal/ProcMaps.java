package io.kvfleet.engine.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Checks a host address range against {@code /proc/self/maps}: every byte must lie in a mapping
 * this process can read and write. UCX registers any pointer it is given (even {@code 0x10}) and
 * copying to an unmapped or read-only page would crash the JVM, so the engine looks first.
 */
public final class ProcMaps {
  private ProcMaps() {}

  private static final Path MAPS = Path.of("/proc/self/maps");

  /** One line of {@code /proc/self/maps}. */
  public record Mapping(long start, long end, String perms, String name) {
    boolean writable() {
      return perms.startsWith("rw");
    }
  }

  /** Why {@code [address, address + length)} cannot be used, or empty when it can. */
  public static Optional<String> problemWith(long address, long length) {
    if (length <= 0 || Long.compareUnsigned(address + length, address) < 0) {
      return Optional.of("range " + Hex.range(address, length) + " wraps or is empty");
    }
    long end = address + length;
    long cursor = address;
    // The kernel writes the file as it is read: stop at the mapping that covers the end.
    try (BufferedReader lines = Files.newBufferedReader(MAPS, StandardCharsets.US_ASCII)) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        Mapping mapping = parse(line);
        if (Long.compareUnsigned(mapping.end(), cursor) <= 0) {
          continue;
        }
        if (Long.compareUnsigned(mapping.start(), cursor) > 0) {
          break;
        }
        if (!mapping.writable()) {
          return Optional.of(Hex.address(cursor) + " is mapped " + mapping.perms()
              + (mapping.name().isEmpty() ? "" : " (" + mapping.name() + ")")
              + ", not readable and writable");
        }
        cursor = mapping.end();
        if (Long.compareUnsigned(cursor, end) >= 0) {
          return Optional.empty();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + MAPS, e);
    }
    return Optional.of(cursor == address
        ? Hex.address(address) + " is not mapped in this process"
        : "range " + Hex.range(address, length) + " runs past the mapping at "
            + Hex.address(cursor) + " (" + (cursor - address) + " bytes mapped)");
  }

  /** The current mappings, ordered by address. */
  public static List<Mapping> read() {
    try {
      List<Mapping> mappings = new ArrayList<>();
      for (String line : Files.readAllLines(MAPS)) {
        mappings.add(parse(line));
      }
      return mappings;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read /proc/self/maps", e);
    }
  }

  /** {@code start-end perms offset dev inode [name]}. */
  static Mapping parse(String line) {
    int dash = line.indexOf('-');
    int space = line.indexOf(' ', dash);
    long start = Long.parseUnsignedLong(line, 0, dash, 16);
    long end = Long.parseUnsignedLong(line, dash + 1, space, 16);
    String perms = line.substring(space + 1, space + 5);
    int fields = 0;
    int at = space;
    while (fields < 4 && at < line.length()) { // skip perms, offset, dev, inode
      while (at < line.length() && line.charAt(at) == ' ') {
        at++;
      }
      while (at < line.length() && line.charAt(at) != ' ') {
        at++;
      }
      fields++;
    }
    return new Mapping(start, end, perms, line.substring(at).trim());
  }
}
