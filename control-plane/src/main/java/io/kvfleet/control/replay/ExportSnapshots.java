package io.kvfleet.control.replay;

import io.kvfleet.control.KvfleetException;
import io.kvfleet.control.ReplayJson;
import io.kvfleet.events.codec.Decoded;
import io.kvfleet.events.replay.LogRecord;
import io.kvfleet.events.snapshot.InvalidSnapshotException;
import io.kvfleet.events.snapshot.StateSnapshot;
import io.kvfleet.events.state.FleetState;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * Snapshots kept beside an export, in {@code <export>.snapshots/}: the state after every
 * {@code every} records of the export, folded in the export's own order with the fold a replay uses,
 * so that {@code replay --until T} can start from the newest one before T ({@link TimeTravel}).
 * Reading trusts nothing: format, the export it belongs to, size, CRC-32C and the hash the restored
 * state must rebuild are checked, and a snapshot failing any is skipped with its reason.
 */
public final class ExportSnapshots {
  /** What every zstd frame starts with (RFC 8878), little-endian. */
  private static final int ZSTD_MAGIC = 0xFD2FB528;

  private ExportSnapshots() {}

  /** A snapshot that passed every check. */
  public record Loaded(Path file, ExportSnapshotHeader header, FleetState state) {}

  /** A snapshot's header line, read without its state, and the file. */
  public record Listed(Path file, ExportSnapshotHeader header) {}

  /** The folder beside {@code export}. */
  public static Path dirOf(Path export) {
    return export.resolveSibling(export.getFileName() + ".snapshots");
  }

  /**
   * Folds the export and writes a snapshot after every {@code every} records (the old ones go);
   * {@code frames} are the export's ({@link ExportWriter#frames}). The paths written.
   */
  public static List<Path> write(Path export, List<ExportWriter.Frame> frames, long every, Optional<Duration> keepEnded) {
    if (every <= 0) {
      throw KvfleetException.badInput("snapshots need a positive number of records between them, not " + every);
    }
    Path dir = dirOf(export);
    var written = new ArrayList<Path>();
    java.time.Instant created;
    try (var reader = ExportReader.open(export)) {
      created = reader.header().created();
    } catch (IOException e) {
      throw KvfleetException.badInput("cannot read " + export + ": " + e.getMessage());
    }
    FleetState state = keepEnded.map(FleetState::keepingEnded).orElseGet(FleetState::new);
    var nextOffsets = new TreeMap<String, Long>();
    long[] seen = {0, Long.MIN_VALUE}; // records, max timestamp
    try {
      clear(dir);
      Files.createDirectories(dir);
      ReplayRunner.read(new LogSource.File(export), (LogRecord r) -> {
        if (r.value() instanceof Decoded.Event e) {
          state.apply(e.envelope());
        }
        seen[0]++;
        seen[1] = Math.max(seen[1], r.timestamp().toEpochMilli());
        nextOffsets.put(r.position().partitionKey(), r.position().offset() + 1);
        if (seen[0] % every == 0) {
          written.add(writeOne(dir, created, seen[0], seen[1], nextOffsets, frames, every, keepEnded, state));
        }
        return true;
      }, false);
    } catch (IOException e) {
      throw KvfleetException.badInput("cannot write snapshots to " + dir + ": " + e.getMessage());
    }
    return written;
  }

  private static Path writeOne(Path dir, java.time.Instant created, long records, long maxTimestamp,
      TreeMap<String, Long> nextOffsets, List<ExportWriter.Frame> frames, long every, Optional<Duration> keepEnded,
      FleetState state) {
    var frame = frames.stream().filter(f -> f.recordsBefore() <= records)
        .max(Comparator.comparingLong(ExportWriter.Frame::recordsBefore)).orElse(new ExportWriter.Frame(0, 0));
    var snapshot = StateSnapshot.of(state);
    byte[] bytes = snapshot.toBytes();
    var crc = new CRC32C();
    crc.update(bytes);
    var header = new ExportSnapshotHeader(ExportSnapshotHeader.FORMAT, ExportSnapshotHeader.VERSION, created, records,
        maxTimestamp, nextOffsets, frame, records - frame.recordsBefore(), keepEnded.map(Duration::toMillis).orElse(-1L),
        snapshot.applied(), snapshot.hash(), bytes.length, crc.getValue(),
        frames.stream().filter(f -> f.recordsBefore() > frame.recordsBefore() && f.recordsBefore() <= records + every)
            .toList(), 0);
    header = header.withHeaderCrc32c(header.lineCrc32c());
    Path file = dir.resolve(String.format("at-%020d.kvsnap", records));
    Path partial = dir.resolve(file.getFileName() + ".partial");
    try {
      try (var out = Files.newOutputStream(partial)) {
        out.write(ReplayJson.line(header).getBytes(StandardCharsets.UTF_8));
        out.write('\n');
        out.write(bytes);
      }
      Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return file;
  }

  private static void clear(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (Stream<Path> old = Files.list(dir)) {
      for (Path p : old.filter(p -> p.getFileName().toString().matches("at-\\d{20}\\.kvsnap(\\.partial)?")).toList()) {
        Files.delete(p);
      }
    }
  }

  /** The snapshots beside {@code export} whose header line reads, most records first; the rest in {@code skipped}. */
  public static List<Listed> list(Path export, List<String> skipped) {
    Path dir = dirOf(export);
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    var listed = new ArrayList<Listed>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(p -> p.getFileName().toString().matches("at-\\d{20}\\.kvsnap")).toList()) {
        try {
          listed.add(new Listed(file, headerOf(file)));
        } catch (InvalidSnapshotException e) {
          skipped.add(file.getFileName() + ": " + e.getMessage());
        }
      }
    } catch (IOException e) {
      skipped.add(dir + ": " + e.getMessage());
    }
    listed.sort(Comparator.comparingLong((Listed l) -> l.header().records()).reversed());
    return listed;
  }

  private static ExportSnapshotHeader headerOf(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] head = in.readNBytes(64 * 1024);
      int newline = indexOf(head, (byte) '\n');
      if (newline < 0) {
        throw new InvalidSnapshotException("no header line");
      }
      var header = ReplayJson.mapper().readValue(head, 0, newline, ExportSnapshotHeader.class);
      if (!ExportSnapshotHeader.FORMAT.equals(header.format()) || header.version() != ExportSnapshotHeader.VERSION) {
        throw new InvalidSnapshotException(header.format() + " version " + header.version() + ", this build reads "
            + ExportSnapshotHeader.FORMAT + " version " + ExportSnapshotHeader.VERSION);
      }
      return header;
    } catch (IOException | RuntimeException e) {
      if (e instanceof InvalidSnapshotException invalid) {
        throw invalid;
      }
      throw new InvalidSnapshotException("its first line is not an export snapshot header");
    }
  }

  /** Reads and checks one snapshot of the export whose header says {@code exportCreated}. */
  public static Loaded load(Listed listed, java.time.Instant exportCreated) {
    return load(listed, exportCreated, false);
  }

  /**
   * {@link #load(Listed, java.time.Instant)}, also walking the restored state for its hash when
   * {@code walkHash} (the previous restore, kept as the benchmark's reference).
   */
  public static Loaded load(Listed listed, java.time.Instant exportCreated, boolean walkHash) {
    var header = listed.header();
    if (!header.exportCreated().equals(exportCreated)) {
      throw new InvalidSnapshotException("it belongs to the export created " + header.exportCreated()
          + ", not to this one (created " + exportCreated + ")");
    }
    checkFrames(header, exportOf(listed.file()));
    if (header.lineCrc32c() != header.headerCrc32c()) {
      // Its frames add up, but only this checksum holds a frame's offset to its record count, and the
      // record count and latest timestamp a replay picks the snapshot by to the state.
      throw new InvalidSnapshotException("its header line does not match its CRC-32C " + header.headerCrc32c()
          + " (it reads as " + header.lineCrc32c() + "): a changed record count, timestamp or frame");
    }
    byte[] all;
    try {
      all = Files.readAllBytes(listed.file());
    } catch (IOException e) {
      throw new InvalidSnapshotException("cannot read it: " + e.getMessage());
    }
    int newline = indexOf(all, (byte) '\n');
    if (all.length - newline - 1 != header.stateBytes()) {
      throw new InvalidSnapshotException((all.length - newline - 1) + " bytes of state, the header says "
          + header.stateBytes());
    }
    byte[] bytes = java.util.Arrays.copyOfRange(all, newline + 1, all.length);
    // The export's identity (above) and the CRC-32C vouch for the bytes: no walk for the state's hash.
    FleetState state = walkHash
        ? StateSnapshot.restoreChecked(bytes, header.stateCrc32c(), header.hash(), header.applied())
        : StateSnapshot.restoreByChecksum(bytes, header.stateCrc32c(), header.applied());
    long keeps = state.keepEnded().map(Duration::toMillis).orElse(-1L);
    if (keeps != header.keepEndedMillis()) {
      throw new InvalidSnapshotException("the state keeps ended transfers " + keeps + " ms, the header says "
          + header.keepEndedMillis());
    }
    return new Loaded(listed.file(), header, state);
  }

  /**
   * Whether the header's place in the export adds up: the CRC-32C covers the state, not the header
   * line, so a changed frame or skip would start the tail elsewhere, refolding records or leaving
   * some out without a word. Its frame and skip must make its record count, and its frames must run
   * forward inside the export, each where a compressed frame starts (or at its end).
   */
  private static void checkFrames(ExportSnapshotHeader header, Path export) {
    var frame = header.frame();
    if (header.skip() < 0 || frame.recordsBefore() < 0 || frame.recordsBefore() + header.skip() != header.records()) {
      throw new InvalidSnapshotException("its frame starts after " + frame.recordsBefore() + " records and it skips "
          + header.skip() + ", which does not make its " + header.records() + " records");
    }
    try (var file = FileChannel.open(export)) {
      var previous = new ExportWriter.Frame(-1, -1);
      for (var next : header.tailFrames()) {
        if (next.recordsBefore() <= previous.recordsBefore() || next.offset() <= previous.offset()) {
          throw new InvalidSnapshotException("its frames do not run forward (" + previous.recordsBefore() + " records"
              + " at byte " + previous.offset() + ", then " + next.recordsBefore() + " at byte " + next.offset() + ")");
        }
        if (!frameStartsAt(file, next.offset(), export)) {
          throw new InvalidSnapshotException("no compressed frame of the export starts at byte " + next.offset()
              + " (" + next.recordsBefore() + " records before it)");
        }
        previous = next;
      }
    } catch (IOException e) {
      throw new InvalidSnapshotException("cannot read its export " + export + ": " + e.getMessage());
    }
  }

  /** Whether a frame of {@code export} can start at {@code offset}: its end, the start, or a zstd frame's magic number. */
  private static boolean frameStartsAt(FileChannel file, long offset, Path export) throws IOException {
    if (offset == 0 || offset == file.size()) {
      return true;
    }
    if (offset > file.size() || !export.getFileName().toString().endsWith(".zst")) {
      return false; // only a zstd export has frames after its first
    }
    var magic = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
    while (magic.hasRemaining() && file.read(magic, offset + magic.position()) > 0) {
      Thread.onSpinWait(); // a short read: read on from where it stopped
    }
    return !magic.hasRemaining() && magic.getInt(0) == ZSTD_MAGIC;
  }

  /** The export a snapshot in {@code <export>.snapshots/} belongs to. */
  private static Path exportOf(Path snapshot) {
    String dir = snapshot.getParent().getFileName().toString();
    return snapshot.getParent().resolveSibling(dir.substring(0, Math.max(0, dir.length() - ".snapshots".length())));
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
