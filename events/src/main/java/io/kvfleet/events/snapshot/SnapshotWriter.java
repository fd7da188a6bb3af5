package io.kvfleet.events.snapshot;

import io.kvfleet.events.state.FleetState;
import io.kvfleet.events.state.StateImage;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes a {@link StateImage} in the snapshot's binary form: a header (magic, format and fold
 * versions, the shape of every class it may use), then segments of tagged values, each with its
 * length: the first is the image without its transfers, each of the others a run of at most
 * {@link #SEGMENT_TRANSFERS} transfers in key order. Within a segment strings are written once and
 * referred back to by index, since node, region and backend names repeat throughout a fleet; no
 * segment refers into another, so a reader decodes them in parallel ({@link SnapshotReader}).
 */
final class SnapshotWriter {
  static final int MAGIC = 0x4B56_4653; // "KVFS"
  static final int FORMAT_VERSION = 2;
  /** Transfers per segment: a fleet's snapshot is mostly transfers (200,000 in ten minutes of a large one). */
  static final int SEGMENT_TRANSFERS = 16_384;

  static final byte NULL = 0;
  static final byte STRING = 1;
  static final byte STRING_REF = 2;
  static final byte LONG = 3;
  static final byte INT = 4;
  static final byte TRUE = 5;
  static final byte FALSE = 6;
  static final byte ENUM = 7;
  static final byte INSTANT = 8;
  static final byte RECORD = 9;
  static final byte LIST = 10;
  static final byte MAP = 11;

  private final DataOutputStream out;
  private final Map<String, Integer> strings = new HashMap<>();

  private SnapshotWriter(OutputStream sink) {
    this.out = new DataOutputStream(sink);
  }

  static void write(StateImage image, OutputStream sink) throws IOException {
    write(image, sink, SEGMENT_TRANSFERS);
  }

  /** {@link #write(StateImage, OutputStream)} with {@code segmentTransfers} transfers a segment (tests use few). */
  static void write(StateImage image, OutputStream sink, int segmentTransfers) throws IOException {
    var writer = new SnapshotWriter(sink);
    writer.header();
    var segments = new ArrayList<byte[]>();
    segments.add(segment(SnapshotSegments.withTransfers(image, new TreeMap<>())));
    var run = new TreeMap<String, Object>();
    for (var transfer : image.transfers().entrySet()) {
      run.put(transfer.getKey(), transfer.getValue());
      if (run.size() == segmentTransfers) {
        segments.add(segment(run));
        run.clear();
      }
    }
    if (!run.isEmpty()) {
      segments.add(segment(run));
    }
    writer.out.writeInt(segments.size());
    for (byte[] segment : segments) {
      writer.out.writeInt(segment.length);
    }
    for (byte[] segment : segments) {
      writer.out.write(segment);
    }
    writer.out.flush();
  }

  /** One segment: {@code value} with strings of its own. */
  static byte[] segment(Object value) throws IOException {
    var bytes = new ByteArrayOutputStream();
    var writer = new SnapshotWriter(bytes);
    writer.value(value);
    writer.out.flush();
    return bytes.toByteArray();
  }

  private void header() throws IOException {
    out.writeInt(MAGIC);
    out.writeInt(FORMAT_VERSION);
    out.writeInt(FleetState.FOLD_VERSION);
    out.writeInt(SnapshotClasses.ALL.size());
    for (Class<?> type : SnapshotClasses.ALL) {
      var shape = SnapshotClasses.shape(type);
      utf8(type.getSimpleName());
      out.writeBoolean(shape.isEnum());
      out.writeInt(shape.description().size());
      for (String part : shape.description()) {
        utf8(part);
      }
    }
  }

  private void value(Object value) throws IOException {
    switch (value) {
      case null -> out.writeByte(NULL);
      case String s -> string(s);
      case Long n -> {
        out.writeByte(LONG);
        out.writeLong(n);
      }
      case Integer n -> {
        out.writeByte(INT);
        out.writeInt(n);
      }
      case Boolean b -> out.writeByte(b ? TRUE : FALSE);
      case Enum<?> e -> {
        out.writeByte(ENUM);
        out.writeShort(SnapshotClasses.indexOf(e.getDeclaringClass()));
        out.writeShort(e.ordinal());
      }
      case Instant t -> {
        out.writeByte(INSTANT);
        out.writeLong(t.getEpochSecond());
        out.writeInt(t.getNano());
      }
      case Record r -> record(r);
      case List<?> list -> {
        out.writeByte(LIST);
        out.writeInt(list.size());
        for (Object element : list) {
          value(element);
        }
      }
      case Map<?, ?> map -> {
        out.writeByte(MAP);
        out.writeInt(map.size());
        for (Map.Entry<?, ?> entry : map.entrySet()) {
          value(entry.getKey());
          value(entry.getValue());
        }
      }
      default -> throw new IllegalStateException("a snapshot cannot hold " + value.getClass());
    }
  }

  private void record(Record r) throws IOException {
    var shape = SnapshotClasses.shape(r.getClass());
    out.writeByte(RECORD);
    out.writeShort(SnapshotClasses.indexOf(r.getClass()));
    for (var accessor : shape.accessors()) {
      try {
        value(accessor.invoke(r));
      } catch (IOException | RuntimeException e) {
        throw e;
      } catch (Throwable e) {
        throw new IllegalStateException("cannot read a component of " + r.getClass(), e);
      }
    }
  }

  private void string(String s) throws IOException {
    Integer known = strings.get(s);
    if (known != null) {
      out.writeByte(STRING_REF);
      out.writeInt(known);
      return;
    }
    strings.put(s, strings.size());
    out.writeByte(STRING);
    utf8(s);
  }

  private void utf8(String s) throws IOException {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    out.writeInt(bytes.length);
    out.write(bytes);
  }
}
