package io.kvfleet.events.state;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
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
 * A canonical byte form of state: type-tagged and length-prefixed, records by their components,
 * maps with entries sorted by the bytes of their keys, so it depends on no iteration order and
 * no JVM run. Anything else is a programming error.
 */
final class Canonical {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final DataOutputStream out = new DataOutputStream(bytes);

  /** Hex SHA-256 of the canonical form of {@code value}. */
  static String sha256(Object value) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(encode(value));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  static byte[] encode(Object value) {
    var canonical = new Canonical();
    try {
      canonical.write(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
    }
    return canonical.bytes.toByteArray();
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
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    out.writeByte(tag);
    out.writeInt(utf8.length);
    out.write(utf8);
  }

  private void record(Record r) throws IOException {
    RecordComponent[] components = r.getClass().getRecordComponents();
    string('R', r.getClass().getSimpleName());
    out.writeInt(components.length);
    for (RecordComponent component : components) {
      string('C', component.getName());
      write(valueOf(component, r));
    }
  }

  private static Object valueOf(RecordComponent component, Record r) {
    try {
      var accessor = component.getAccessor();
      accessor.setAccessible(true); // package-private records of this package
      return accessor.invoke(r);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot read " + component, e);
    }
  }

  private void list(List<?> list) throws IOException {
    out.writeByte('A');
    out.writeInt(list.size());
    for (Object element : list) {
      write(element);
    }
  }

  private void map(Map<?, ?> map) throws IOException {
    List<byte[][]> entries = new ArrayList<>();
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      entries.add(new byte[][] {encode(entry.getKey()), encode(entry.getValue())});
    }
    entries.sort((a, b) -> Arrays.compare(a[0], b[0]));
    out.writeByte('M');
    out.writeInt(entries.size());
    for (byte[][] entry : entries) {
      out.write(entry[0]);
      out.write(entry[1]);
    }
  }
}
