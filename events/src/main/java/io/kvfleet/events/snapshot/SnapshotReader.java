package io.kvfleet.events.snapshot;

import static io.kvfleet.events.snapshot.SnapshotWriter.*;

import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.StateImage;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Reads what {@link SnapshotWriter} wrote, trusting nothing: the magic, both versions and every
 * class shape must match this build, sizes must fit the bytes that are left, only the classes of
 * {@link SnapshotClasses} are built (through their validating constructors), and nothing may
 * follow a segment's value or the last segment. Segments are decoded in parallel
 * ({@link SnapshotSegments}). Any failure is an {@link InvalidSnapshotException} that says what was wrong.
 */
final class SnapshotReader {
  /**
   * How deep records, lists and maps may nest. The fold's own state nests a handful of levels; a
   * crafted segment of a list in a list a million times (5 bytes a level) would otherwise
   * overflow the reading thread's stack, an Error no caller expects from a snapshot.
   */
  static final int MAX_DEPTH = 64;

  private final ByteBuffer in;
  private final List<String> strings = new ArrayList<>();
  private int depth;

  private SnapshotReader(byte[] bytes) {
    this.in = ByteBuffer.wrap(bytes);
  }

  private SnapshotReader(ByteBuffer in) {
    this.in = in;
  }

  static StateImage read(byte[] bytes) {
    var reader = new SnapshotReader(bytes);
    List<ByteBuffer> segments = guarded(() -> {
      reader.header();
      return reader.segments();
    });
    return SnapshotSegments.assemble(segments);
  }

  /** The value a segment holds, all of it (nothing may follow), read with the segment's own strings. */
  static Object segment(ByteBuffer bytes) {
    return guarded(() -> {
      var reader = new SnapshotReader(bytes);
      Object value = reader.value();
      if (reader.in.hasRemaining()) {
        throw new InvalidSnapshotException(reader.in.remaining() + " unexpected bytes after a segment's value");
      }
      return value;
    });
  }

  /** Runs a read, turning whatever goes wrong into an {@link InvalidSnapshotException} that says what. */
  private static <T> T guarded(java.util.function.Supplier<T> read) {
    try {
      return read.get();
    } catch (BufferUnderflowException e) {
      throw new InvalidSnapshotException("the snapshot is truncated");
    } catch (RuntimeException e) {
      if (e instanceof InvalidSnapshotException invalid) {
        throw invalid;
      }
      throw new InvalidSnapshotException("unreadable snapshot: " + e);
    }
  }

  /** The segments after the header: their count, their lengths, then their bytes, which must end the snapshot. */
  private List<ByteBuffer> segments() {
    int count = size();
    if (count == 0) {
      throw new InvalidSnapshotException("the snapshot has no segment");
    }
    var lengths = new int[count];
    long total = 0;
    for (int i = 0; i < count; i++) {
      lengths[i] = size();
      total += lengths[i];
    }
    if (total != in.remaining()) {
      throw new InvalidSnapshotException("segments of " + total + " bytes in all, " + in.remaining() + " bytes left");
    }
    var segments = new ArrayList<ByteBuffer>(count);
    for (int length : lengths) {
      segments.add(in.slice(in.position(), length));
      in.position(in.position() + length);
    }
    return segments;
  }

  private void header() {
    if (in.getInt() != MAGIC) {
      throw new InvalidSnapshotException("not a kvfleet state snapshot (bad magic number)");
    }
    int format = in.getInt();
    if (format != FORMAT_VERSION) {
      throw new InvalidSnapshotException("snapshot format " + format + ", this build reads " + FORMAT_VERSION);
    }
    int fold = in.getInt();
    if (fold != FleetState.FOLD_VERSION) {
      throw new InvalidSnapshotException(
          "snapshot of fold version " + fold + ", this build folds version " + FleetState.FOLD_VERSION);
    }
    int classes = in.getInt();
    if (classes != SnapshotClasses.ALL.size()) {
      throw new InvalidSnapshotException(
          "snapshot names " + classes + " classes, this build " + SnapshotClasses.ALL.size());
    }
    for (Class<?> type : SnapshotClasses.ALL) {
      String name = utf8();
      boolean isEnum = bool();
      var parts = new ArrayList<String>();
      for (int i = size(); i > 0; i--) {
        parts.add(utf8());
      }
      var shape = SnapshotClasses.shape(type);
      if (!name.equals(type.getSimpleName()) || isEnum != shape.isEnum() || !parts.equals(shape.description())) {
        throw new InvalidSnapshotException("incompatible snapshot: " + name + " " + parts
            + " where this build has " + type.getSimpleName() + " " + shape.description());
      }
    }
  }

  private Object value() {
    if (++depth > MAX_DEPTH) {
      throw new InvalidSnapshotException("values nested more than " + MAX_DEPTH + " deep");
    }
    try {
      return valueAt(in.get());
    } finally {
      depth--;
    }
  }

  private Object valueAt(byte tag) {
    return switch (tag) {
      case NULL -> null;
      case STRING -> {
        String s = utf8();
        strings.add(s);
        yield s;
      }
      case STRING_REF -> {
        int index = in.getInt();
        if (index < 0 || index >= strings.size()) {
          throw new InvalidSnapshotException("string reference " + index + " out of range");
        }
        yield strings.get(index);
      }
      case LONG -> in.getLong();
      case INT -> in.getInt();
      case TRUE -> true;
      case FALSE -> false;
      case ENUM -> enumConstant();
      case INSTANT -> instant();
      case RECORD -> record();
      case LIST -> {
        int size = size();
        var list = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
          list.add(value());
        }
        yield list;
      }
      case MAP -> {
        var map = new TreeMap<Object, Object>();
        for (int i = size(); i > 0; i--) {
          map.put(value(), value());
        }
        yield map;
      }
      default -> throw new InvalidSnapshotException("unknown value tag " + tag);
    };
  }

  private boolean bool() {
    byte b = in.get();
    if (b != 0 && b != 1) {
      throw new InvalidSnapshotException("invalid boolean " + b);
    }
    return b == 1;
  }

  private Object enumConstant() {
    Class<?> type = classAt(in.getShort());
    int ordinal = in.getShort();
    Object[] constants = type.getEnumConstants();
    if (constants == null || ordinal < 0 || ordinal >= constants.length) {
      throw new InvalidSnapshotException("no constant " + ordinal + " of " + type.getSimpleName());
    }
    return constants[ordinal];
  }

  private Instant instant() {
    try {
      return Instant.ofEpochSecond(in.getLong(), in.getInt());
    } catch (DateTimeException | ArithmeticException e) {
      throw new InvalidSnapshotException("invalid instant: " + e.getMessage());
    }
  }

  private Object record() {
    Class<?> type = classAt(in.getShort());
    var shape = SnapshotClasses.shape(type);
    if (shape.isEnum()) {
      throw new InvalidSnapshotException(type.getSimpleName() + " is an enum, not a record");
    }
    var values = new Object[shape.accessors().length];
    for (int i = 0; i < values.length; i++) {
      values[i] = value();
    }
    try {
      return shape.constructor().invoke(values);
    } catch (Throwable e) {
      throw new InvalidSnapshotException("invalid " + type.getSimpleName() + ": " + e);
    }
  }

  private Class<?> classAt(int index) {
    if (index < 0 || index >= SnapshotClasses.ALL.size()) {
      throw new InvalidSnapshotException("class index " + index + " out of range");
    }
    return SnapshotClasses.ALL.get(index);
  }

  /** A count that the remaining bytes can hold (each element takes at least one byte). */
  private int size() {
    int size = in.getInt();
    if (size < 0 || size > in.remaining()) {
      throw new InvalidSnapshotException("size " + size + " does not fit the " + in.remaining() + " bytes left");
    }
    return size;
  }

  private String utf8() {
    int length = size();
    String s = new String(in.array(), in.arrayOffset() + in.position(), length, StandardCharsets.UTF_8);
    in.position(in.position() + length);
    return s;
  }
}
