package io.kvfleet.control.coordinator;

import io.kvfleet.control.ReplayJson;
import io.kvfleet.events.replay.FoldOrder;
import io.kvfleet.events.snapshot.InvalidSnapshotException;
import io.kvfleet.events.snapshot.StateSnapshot;
import io.kvfleet.events.state.FleetState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * A coordinator's snapshots, as files in one folder: {@code snapshot-<coordinator>-<applied>-<millis>.kvsnap},
 * a JSON header line then the binary state. A file is written beside its final name and moved
 * into place, so a crash leaves no half snapshot; the newest {@link #KEEP} are kept. Reading
 * trusts nothing: format, version, size, CRC-32C, the consistency of offsets and order, and the
 * hash the restored state must rebuild are all checked, and a file failing any is skipped.
 */
public final class SnapshotStore {
  /** How many snapshots of a coordinator are kept. */
  public static final int KEEP = 3;

  private final Path dir;

  /** A store in {@code dir} (created when missing). */
  public SnapshotStore(Path dir) {
    this.dir = dir;
  }

  /** The folder. */
  public Path dir() {
    return dir;
  }

  /** A snapshot that passed every check. */
  public record Snapshot(Path file, SnapshotHeader header, FleetState state) {}

  /** A snapshot file that failed a check, and which. */
  public record Skipped(Path file, String reason) {}

  /** The newest valid snapshot of a coordinator, if any, and the newer ones that were skipped. */
  public record Loaded(Optional<Snapshot> snapshot, List<Skipped> skipped) {}

  /**
   * Writes a snapshot of the log whose topics have {@code topicIds}; on the caller's thread (it does I/O
   * and hashing: not an event loop).
   */
  public Path write(String coordinatorId, StateSnapshot state, FoldOrder order, Instant created,
      java.util.SortedMap<String, String> topicIds) throws IOException {
    Files.createDirectories(dir);
    byte[] bytes = state.toBytes();
    var crc = new CRC32C();
    crc.update(bytes);
    var header = new SnapshotHeader(SnapshotHeader.FORMAT, SnapshotHeader.VERSION, coordinatorId, created,
        state.applied(), state.hash(), topicIds, order.nextOffsets(), order, bytes.length, crc.getValue());
    Path file = dir.resolve(String.format("snapshot-%s-%020d-%d.kvsnap", coordinatorId, state.applied(),
        created.toEpochMilli()));
    Path partial = dir.resolve(file.getFileName() + ".partial");
    try (var out = Files.newOutputStream(partial)) {
      out.write(ReplayJson.line(header).getBytes(StandardCharsets.UTF_8));
      out.write('\n');
      out.write(bytes);
    }
    Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    prune(coordinatorId);
    return file;
  }

  /** Tries the coordinator's snapshots newest first and returns the first that passes every check. */
  public Loaded loadNewest(String coordinatorId) {
    var skipped = new ArrayList<Skipped>();
    for (Path file : files(coordinatorId)) {
      try {
        return new Loaded(Optional.of(read(file)), skipped);
      } catch (InvalidSnapshotException e) {
        skipped.add(new Skipped(file, e.getMessage()));
      }
    }
    return new Loaded(Optional.empty(), skipped);
  }

  /** Reads and checks one snapshot file; an {@link InvalidSnapshotException} says what is wrong. */
  public static Snapshot read(Path file) {
    byte[] all;
    try {
      all = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new InvalidSnapshotException("cannot read " + file + ": "
          + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getMessage()));
    }
    int newline = indexOf(all, (byte) '\n');
    if (newline < 0) {
      throw new InvalidSnapshotException(file + " is not a kvfleet snapshot: it has no header line");
    }
    SnapshotHeader header;
    try {
      header = ReplayJson.mapper().readValue(all, 0, newline, SnapshotHeader.class);
    } catch (IOException | RuntimeException e) {
      throw new InvalidSnapshotException(file + olderVersion(all, newline)
          .map(v -> " is kvfleet-snapshot version " + v + ", this build reads version " + SnapshotHeader.VERSION
              + " (written by another build: a coordinator folds the log from the start)")
          .orElse(" is not a kvfleet snapshot: its first line is not a snapshot header"));
    }
    check(header, all.length - newline - 1);
    byte[] bytes = java.util.Arrays.copyOfRange(all, newline + 1, all.length);
    FleetState state = StateSnapshot.restoreChecked(bytes, header.stateCrc32c(), header.hash(), header.applied());
    return new Snapshot(file, header, state);
  }

  /** The version a snapshot header of another build names, when the line is one (its fields differ from this build's). */
  private static Optional<Integer> olderVersion(byte[] all, int newline) {
    try {
      var line = ReplayJson.mapper().readTree(all, 0, newline);
      return SnapshotHeader.FORMAT.equals(line.path("format").asText()) && line.path("version").isInt()
          && line.path("version").asInt() != SnapshotHeader.VERSION
          ? Optional.of(line.path("version").asInt()) : Optional.empty();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static void check(SnapshotHeader header, long stateBytes) {
    if (!SnapshotHeader.FORMAT.equals(header.format()) || header.version() != SnapshotHeader.VERSION) {
      throw new InvalidSnapshotException(header.format() + " version " + header.version() + ", this build reads "
          + SnapshotHeader.FORMAT + " version " + SnapshotHeader.VERSION);
    }
    if (stateBytes != header.stateBytes()) {
      throw new InvalidSnapshotException(stateBytes + " bytes of state, the header says " + header.stateBytes());
    }
    if (!header.order().nextOffsets().equals(header.nextOffsets())) {
      throw new InvalidSnapshotException("the fold order ends at " + header.order().nextOffsets()
          + ", the header says " + header.nextOffsets());
    }
  }

  /** The coordinator's snapshot files, newest (most events folded) first. */
  public List<Path> files(String coordinatorId) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    var name = java.util.regex.Pattern.compile(
        "snapshot-" + java.util.regex.Pattern.quote(coordinatorId) + "-\\d{20}-\\d+\\.kvsnap");
    try (Stream<Path> paths = Files.list(dir)) {
      return paths.filter(p -> name.matcher(p.getFileName().toString()).matches())
          .sorted(Comparator.comparing((Path p) -> p.getFileName().toString()).reversed())
          .toList();
    } catch (IOException e) {
      return List.of();
    }
  }

  private void prune(String coordinatorId) throws IOException {
    var files = files(coordinatorId);
    for (Path old : files.subList(Math.min(KEEP, files.size()), files.size())) {
      Files.deleteIfExists(old);
    }
  }

  private static int indexOf(byte[] bytes, byte b) {
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == b) {
        return i;
      }
    }
    return -1;
  }
}
