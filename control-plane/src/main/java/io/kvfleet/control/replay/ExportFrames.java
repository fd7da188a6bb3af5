package io.kvfleet.control.replay;

import io.kvfleet.control.KvfleetException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The frames of a zstd export found again from its bytes, for an export whose writer's frame list
 * ({@link ExportWriter#frames}) was not kept: each zstd frame's header and block headers say how
 * long it is (RFC 8878, section 3.1.1), and decompressing a frame says how many records it holds.
 * A gzip export has only the first frame.
 */
public final class ExportFrames {
  private static final int ZSTD_MAGIC = 0xFD2FB528;

  private ExportFrames() {}

  /**
   * The frames after the first, as {@link ExportWriter#frames} lists them, and after a last frame
   * that is not full, the end of the file (where nothing starts: a reader finds no records there).
   */
  public static List<ExportWriter.Frame> scan(Path export) {
    try (var file = FileChannel.open(export)) {
      var frames = new ArrayList<ExportWriter.Frame>();
      long offset = 0;
      long records = -1; // the first frame starts with the export's header line
      long size = file.size();
      while (offset < size) {
        long end = frameEnd(file, offset);
        records += lines(file, offset, end);
        frames.add(new ExportWriter.Frame(records, end));
        offset = end;
      }
      if (!frames.isEmpty() && frames.getLast().offset() == size && frames.size() > 1
          && frames.getLast().recordsBefore() == frames.get(frames.size() - 2).recordsBefore()) {
        frames.removeLast(); // an empty last frame: nothing starts there
      }
      return frames;
    } catch (IOException | RuntimeException e) {
      throw KvfleetException.badInput("cannot find the zstd frames of " + export + ": " + e.getMessage());
    }
  }

  /** Where the zstd frame at {@code offset} ends. */
  private static long frameEnd(FileChannel file, long offset) throws IOException {
    var head = read(file, offset, 18);
    if (head.getInt(0) != ZSTD_MAGIC) {
      throw new IOException("no zstd frame at byte " + offset);
    }
    int descriptor = head.get(4) & 0xff;
    boolean singleSegment = (descriptor & 0x20) != 0;
    int contentSizeBytes = switch (descriptor >>> 6) {
      case 0 -> singleSegment ? 1 : 0;
      case 1 -> 2;
      case 2 -> 4;
      default -> 8;
    };
    int dictionaryBytes = switch (descriptor & 3) {
      case 0 -> 0;
      case 1 -> 1;
      case 2 -> 2;
      default -> 4;
    };
    long at = offset + 5 + (singleSegment ? 0 : 1) + dictionaryBytes + contentSizeBytes;
    while (true) {
      var block = read(file, at, 3);
      int header = (block.get(0) & 0xff) | (block.get(1) & 0xff) << 8 | (block.get(2) & 0xff) << 16;
      int type = (header >>> 1) & 3;
      int length = header >>> 3;
      at += 3 + (type == 1 ? 1 : length); // an RLE block stores its one byte
      if ((header & 1) != 0) {
        return at + ((descriptor & 4) != 0 ? 4 : 0); // the content checksum, if the frame has one
      }
    }
  }

  /** Lines in the decompressed frame {@code [from, to)}. */
  private static long lines(FileChannel file, long from, long to) throws IOException {
    var compressed = read(file, from, Math.toIntExact(to - from));
    long lines = 0;
    try (InputStream in = Compression.decompress(new ByteArrayInputStream(compressed.array()), Path.of("frame"))) {
      byte[] buffer = new byte[1 << 16];
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        for (int i = 0; i < n; i++) {
          if (buffer[i] == '\n') {
            lines++;
          }
        }
      }
    }
    return lines;
  }

  private static ByteBuffer read(FileChannel file, long at, int length) throws IOException {
    var buffer = ByteBuffer.allocate((int) Math.min(length, Math.max(0, file.size() - at)));
    while (buffer.hasRemaining() && file.read(buffer, at + buffer.position()) >= 0) {
      // until full or the end of the file
    }
    return buffer.flip().order(ByteOrder.LITTLE_ENDIAN);
  }
}
