package io.kvfleet.events.snapshot;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * {@link Canonical} as it was at 22f3146, kept verbatim (only renamed) as the reference the faster
 * form must match byte for byte: snapshots written by earlier builds carry hashes of this form.
 *
 * <p>A canonical byte form of state: type-tagged and length-prefixed, records by their components,
 * maps with entries sorted by the bytes of their keys, so it depends on no iteration order and
 * no JVM run. Anything else is a programming error.
 *
 * <p>The hash streams this form into SHA-256 instead of building it in memory, and reads record
 * components through method handles looked up once per class: a fleet with hundreds of thousands
 * of transfers hashes in about half a second. The bytes are the same as writing each part in turn.
 */
final class CanonicalReference {
  /** A record component: its tagged name, written before its value, and its accessor. */
  private record Component(byte[] taggedName, MethodHandle accessor) {}

  /** A record class: its tagged simple name and components. */
  private record Shape(byte[] taggedName, Component[] components) {}

  private static final ClassValue<Shape> SHAPES =
      new ClassValue<>() {
        @Override
        protected Shape computeValue(Class<?> type) {
          return shapeOf(type);
        }
      };

  private final DataOutputStream out;

  private CanonicalReference(OutputStream sink) {
    this.out = new DataOutputStream(sink);
  }

  /** Hex SHA-256 of the canonical form of {@code value}. */
  static String sha256(Object value) {
    try {
      var digest = MessageDigest.getInstance("SHA-256");
      var canonical = new CanonicalReference(new DigestSink(digest));
      canonical.write(value);
      canonical.out.flush();
      return HexFormat.of().formatHex(digest.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a digest stream does not fail
    }
  }

  static byte[] encode(Object value) {
    var bytes = new ByteArrayOutputStream();
    try {
      new CanonicalReference(bytes).write(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
    }
    return bytes.toByteArray();
  }

  private void write(Object value) throws IOException {
    switch (value) {
      case null -> out.writeByte('N');
      case String s -> string('S', s);
      case Long n -> number(n);
      case Integer n -> number(n);
      case Boolean b -> out.writeBytes(b ? "T" : "F");
      case Enum<?> e -> string('E', e.getDeclaringClass().getSimpleName() + "." + e.name());
      case Instant t -> {
        out.writeByte('I');
        out.writeLong(t.getEpochSecond());
        out.writeInt(t.getNano());
      }
      case Record r -> record(r);
      case List<?> list -> list(list);
      case Map<?, ?> map -> map(map);
      default -> throw new IllegalStateException("no canonical form for " + value.getClass());
    }
  }

  private void number(long n) throws IOException {
    out.writeByte('L');
    out.writeLong(n);
  }

  private void string(char tag, String s) throws IOException {
    out.write(tagged(tag, s));
  }

  private static byte[] tagged(char tag, String s) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    byte[] bytes = new byte[5 + utf8.length];
    bytes[0] = (byte) tag;
    bytes[1] = (byte) (utf8.length >>> 24);
    bytes[2] = (byte) (utf8.length >>> 16);
    bytes[3] = (byte) (utf8.length >>> 8);
    bytes[4] = (byte) utf8.length;
    System.arraycopy(utf8, 0, bytes, 5, utf8.length);
    return bytes;
  }

  private void record(Record r) throws IOException {
    Shape shape = SHAPES.get(r.getClass());
    out.write(shape.taggedName());
    out.writeInt(shape.components().length);
    for (Component component : shape.components()) {
      out.write(component.taggedName());
      write(valueOf(component, r));
    }
  }

  private static Object valueOf(Component component, Record r) {
    try {
      return (Object) component.accessor().invokeExact(r);
    } catch (Throwable e) {
      throw new IllegalStateException("cannot read a component of " + r.getClass(), e);
    }
  }

  private static Shape shapeOf(Class<?> type) {
    RecordComponent[] components = type.getRecordComponents();
    var shape = new Component[components.length];
    for (int i = 0; i < components.length; i++) {
      try {
        var accessor = components[i].getAccessor();
        accessor.setAccessible(true); // any record a state holds, public or not
        shape[i] = new Component(tagged('C', components[i].getName()),
            MethodHandles.lookup().unreflect(accessor).asType(
                java.lang.invoke.MethodType.methodType(Object.class, Record.class)));
      } catch (IllegalAccessException e) {
        throw new IllegalStateException("cannot read " + components[i], e);
      }
    }
    return new Shape(tagged('R', type.getSimpleName()), shape);
  }

  private void list(List<?> list) throws IOException {
    out.writeByte('A');
    out.writeInt(list.size());
    for (Object element : list) {
      write(element);
    }
  }

  /** Entries sorted by the bytes of their keys; each key, then its value, written in turn. */
  private void map(Map<?, ?> map) throws IOException {
    List<Map.Entry<byte[], Object>> entries = new ArrayList<>(map.size());
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      // A string key (ids: the large maps) is encoded here directly: the same bytes as encode(key).
      byte[] key = entry.getKey() instanceof String s ? tagged('S', s) : encode(entry.getKey());
      entries.add(Map.entry(key, valueOrNullMarker(entry.getValue())));
    }
    entries.sort((a, b) -> Arrays.compare(a.getKey(), b.getKey()));
    out.writeByte('M');
    out.writeInt(entries.size());
    for (Map.Entry<byte[], Object> entry : entries) {
      out.write(entry.getKey());
      write(entry.getValue() == NULL ? null : entry.getValue());
    }
  }

  private static final Object NULL = new Object(); // Map.entry takes no null values

  /**
   * Buffers into the digest without a lock: {@code BufferedOutputStream} takes one per write, and
   * the canonical form is millions of small writes (most of a hash's time went there).
   */
  private static final class DigestSink extends OutputStream {
    private final MessageDigest digest;
    private final byte[] buffer = new byte[1 << 16];
    private int used;

    DigestSink(MessageDigest digest) {
      this.digest = digest;
    }

    @Override
    public void write(int b) {
      if (used == buffer.length) {
        flush();
      }
      buffer[used++] = (byte) b;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
      if (length > buffer.length - used) {
        flush();
        if (length > buffer.length) {
          digest.update(bytes, offset, length);
          return;
        }
      }
      System.arraycopy(bytes, offset, buffer, used, length);
      used += length;
    }

    @Override
    public void flush() {
      digest.update(buffer, 0, used);
      used = 0;
    }
  }

  private static Object valueOrNullMarker(Object value) {
    return value == null ? NULL : value;
  }
}
