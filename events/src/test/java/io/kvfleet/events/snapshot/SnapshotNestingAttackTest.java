package io.kvfleet.events.snapshot;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvfleet.events.state.FleetState;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * A snapshot whose first segment is a list nested a million deep (5 bytes a level, so 5 MB, with
 * a CRC-32C that matches: whoever writes the snapshot file writes its header too). The reader
 * recursed once per level and overflowed the stack: a {@link StackOverflowError}, which neither the
 * reader's guard nor {@code TimeTravel} (which skips a snapshot on {@link InvalidSnapshotException}
 * only) catches, so {@code kvfleet replay --until} died instead of skipping the snapshot.
 */
class SnapshotNestingAttackTest {
  private static final byte LIST = 10;
  private static final byte NULL = 0;

  @Test
  void aDeeplyNestedSegmentIsAnInvalidSnapshotNotAStackOverflow() throws IOException {
    byte[] poison = withFirstSegment(nestedLists(1_000_000));
    long crc = crc32c(poison);

    assertThatThrownBy(() -> StateSnapshot.restoreByChecksum(poison, crc, 0))
        .isInstanceOf(InvalidSnapshotException.class)
        .hasMessageContaining("nested");
  }

  @Test
  void aDeeplyNestedSegmentIsRefusedByTheHashCheckingRestoreToo() throws IOException {
    byte[] poison = withFirstSegment(nestedLists(1_000_000));

    assertThatThrownBy(() -> StateSnapshot.restoreChecked(poison, crc32c(poison), "any", 0))
        .isInstanceOf(InvalidSnapshotException.class)
        .hasMessageContaining("nested");
  }

  /** {@code depth} lists each holding the next, the innermost holding null. */
  private static byte[] nestedLists(int depth) throws IOException {
    var bytes = new ByteArrayOutputStream(depth * 5 + 1);
    var out = new DataOutputStream(bytes);
    for (int i = 0; i < depth; i++) {
      out.writeByte(LIST);
      out.writeInt(1);
    }
    out.writeByte(NULL);
    out.flush();
    return bytes.toByteArray();
  }

  /** A real snapshot's header (this build's magic, versions and class shapes) with one segment, {@code segment}. */
  private static byte[] withFirstSegment(byte[] segment) throws IOException {
    byte[] real = StateSnapshot.of(new FleetState()).toBytes();
    int header = headerLength(real);
    var bytes = new ByteArrayOutputStream();
    var out = new DataOutputStream(bytes);
    out.write(real, 0, header);
    out.writeInt(1);
    out.writeInt(segment.length);
    out.write(segment);
    out.flush();
    return bytes.toByteArray();
  }

  /**
   * Where the segment table starts: the first offset after the magic whose count and lengths add
   * up to the bytes left (the header's own layout is the writer's private business).
   */
  private static int headerLength(byte[] snapshot) {
    var in = ByteBuffer.wrap(snapshot);
    for (int at = 16; at + 4 <= snapshot.length; at++) {
      int count = in.getInt(at);
      int table = at + 4 + 4 * count;
      if (count < 1 || count > 64 || table > snapshot.length) {
        continue;
      }
      long total = 0;
      for (int i = 0; i < count; i++) {
        total += in.getInt(at + 4 + 4 * i);
      }
      if (total == snapshot.length - table) {
        return at;
      }
    }
    throw new AssertionError("no segment table in " + Arrays.toString(Arrays.copyOf(snapshot, 32)));
  }

  private static long crc32c(byte[] bytes) {
    var crc = new CRC32C();
    crc.update(bytes);
    return crc.getValue();
  }
}
