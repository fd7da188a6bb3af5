package io.kvfleet.events.snapshot;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * A canonical byte form of state: type-tagged and length-prefixed, records by their components,
 * maps with entries sorted by the bytes of their keys, so it depends on no iteration order and
 * no JVM run. Anything else is a programming error.
 *
 * <p>The hash streams this form into SHA-256 instead of building it in memory ({@link CanonicalSink}),
 * reads record components through readers spun once per class ({@link RecordShape}), and sorts a
 * map of string keys by their UTF-8 alone. The bytes are those of the form as first written, which
 * snapshots carry (a test keeps that form, to compare).
 */
final class Canonical {
  /** A map entry by the canonical form of its key. */
  private record Keyed(byte[] key, Object value) {}

  /** A map entry by the UTF-8 of its string key: the canonical form of the key less its tag and length. */
  private record StringKeyed(byte[] utf8, Object value) {}

  /** Each constant's tagged name, by ordinal, per enum class. */
  private static final ClassValue<byte[][]> ENUM_NAMES =
      new ClassValue<>() {
        @Override
        protected byte[][] computeValue(Class<?> type) {
          Object[] constants = type.getEnumConstants();
          var names = new byte[constants.length][];
          for (int i = 0; i < constants.length; i++) {
            names[i] = CanonicalSink.tagged('E', type.getSimpleName() + "." + ((Enum<?>) constants[i]).name());
          }
          return names;
        }
      };

  /**
   * The order of the bytes of 'S', a big-endian length and UTF-8, as {@link Arrays#compare} orders them
   * (signed bytes): the length first, as its bytes with their top bits flipped order unsigned (so a
   * signed int of the length with the top bits of its three lower bytes flipped), then the UTF-8.
   */
  private static final Comparator<StringKeyed> STRING_KEY_ORDER = (a, b) -> {
    int byLength = Integer.compare(a.utf8().length ^ 0x00808080, b.utf8().length ^ 0x00808080);
    return byLength != 0 ? byLength : Arrays.compare(a.utf8(), b.utf8());
  };

  /** Entries from which a map of string keys is sorted and written on every core ({@link #inParallel}). */
  static final int PARALLEL_ENTRIES = 16_384;
  /** Entries a worker writes at once. */
  private static final int CHUNK = 1_024;
  /** Chunks written before they are fed on, in order: a few MB at a time, whatever the state's size. */
  private static final int WINDOW = 16;

  private final CanonicalSink sink;
  private final boolean parallel;

  private Canonical(CanonicalSink sink, boolean parallel) {
    this.sink = sink;
    this.parallel = parallel;
  }

  /** Hex SHA-256 of the canonical form of {@code value}. */
  static String sha256(Object value) {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
    var sink = CanonicalSink.into(digest);
    new Canonical(sink, true).write(value);
    sink.drain();
    return HexFormat.of().formatHex(digest.digest());
  }

  static byte[] encode(Object value) {
    var sink = CanonicalSink.collecting();
    new Canonical(sink, false).write(value);
    return sink.toByteArray();
  }

  private void write(Object value) {
    switch (value) {
      case null -> sink.writeByte('N');
      case String s -> sink.writeString('S', s);
      case Long n -> number(n);
      case Integer n -> number(n);
      case Boolean b -> sink.writeByte(b ? 'T' : 'F');
      case Enum<?> e -> sink.write(ENUM_NAMES.get(e.getDeclaringClass())[e.ordinal()]);
      case Instant t -> {
        sink.writeByte('I');
        sink.writeLong(t.getEpochSecond());
        sink.writeInt(t.getNano());
      }
      case Record r -> record(r);
      case List<?> list -> list(list);
      case Map<?, ?> map -> map(map);
      default -> throw new IllegalStateException("no canonical form for " + value.getClass());
    }
  }

  private void number(long n) {
    sink.writeByte('L');
    sink.writeLong(n);
  }

  private void record(Record r) {
    RecordShape shape = RecordShape.of(r.getClass());
    sink.write(shape.taggedName());
    sink.writeInt(shape.components().length);
    for (RecordShape.Component component : shape.components()) {
      sink.write(component.taggedName());
      switch (component.kind()) {
        case NUMBER -> number(component.number().applyAsLong(r));
        case BOOLEAN -> sink.writeByte(component.flag().test(r) ? 'T' : 'F');
        case STRING -> string((String) component.value().apply(r));
        case VALUE -> write(component.value().apply(r));
      }
    }
  }

  private void string(String s) {
    if (s == null) {
      sink.writeByte('N');
    } else {
      sink.writeString('S', s);
    }
  }

  private void list(List<?> list) {
    sink.writeByte('A');
    sink.writeInt(list.size());
    for (Object element : list) {
      write(element);
    }
  }

  /** Entries sorted by the bytes of their keys; each key, then its value, written in turn. */
  private void map(Map<?, ?> map) {
    Map.Entry<?, ?>[] entries = map.entrySet().toArray(new Map.Entry<?, ?>[0]);
    if (stringKeys(entries)) {
      stringKeyed(entries);
    } else {
      keyed(entries);
    }
  }

  private static boolean stringKeys(Map.Entry<?, ?>[] entries) {
    for (Map.Entry<?, ?> entry : entries) {
      if (!(entry.getKey() instanceof String)) {
        return false;
      }
    }
    return true;
  }

  /** String keys (ids: the large maps): each key's UTF-8 taken once, and no tag or length copied to sort. */
  private void stringKeyed(Map.Entry<?, ?>[] entries) {
    var keyed = new StringKeyed[entries.length];
    for (int i = 0; i < entries.length; i++) {
      keyed[i] = new StringKeyed(((String) entries[i].getKey()).getBytes(StandardCharsets.UTF_8), entries[i].getValue());
    }
    boolean large = parallel && keyed.length >= PARALLEL_ENTRIES;
    if (large) {
      Arrays.parallelSort(keyed, STRING_KEY_ORDER); // stable, as Arrays.sort: keys of equal bytes keep their order
    } else {
      Arrays.sort(keyed, STRING_KEY_ORDER);
    }
    sink.writeByte('M');
    sink.writeInt(keyed.length);
    if (large) {
      inParallel(keyed);
      return;
    }
    for (StringKeyed entry : keyed) {
      sink.writeTagged('S', entry.utf8());
      write(entry.value());
    }
  }

  /**
   * The entries' bytes made on every core (the common pool and this thread), a window of chunks at a
   * time, then fed on in order: the bytes one thread writes. The workers only read the state, while
   * the thread that owns it waits here for them.
   */
  private void inParallel(StringKeyed[] keyed) {
    for (int from = 0; from < keyed.length; from += CHUNK * WINDOW) {
      int start = from;
      int end = Math.min(keyed.length, from + CHUNK * WINDOW);
      byte[][] chunks = IntStream.range(0, (end - start + CHUNK - 1) / CHUNK).parallel()
          .mapToObj(c -> chunk(keyed, start + c * CHUNK, Math.min(end, start + (c + 1) * CHUNK)))
          .toArray(byte[][]::new);
      for (byte[] chunk : chunks) {
        sink.write(chunk);
      }
    }
  }

  /** The bytes of {@code keyed[from, to)}, each key then its value, as {@link #stringKeyed} writes them. */
  private static byte[] chunk(StringKeyed[] keyed, int from, int to) {
    var canonical = new Canonical(CanonicalSink.collecting(), false);
    for (int i = from; i < to; i++) {
      canonical.sink.writeTagged('S', keyed[i].utf8());
      canonical.write(keyed[i].value());
    }
    return canonical.sink.toByteArray();
  }

  /** Any other keys: each encoded once, the entries sorted (stably) by those bytes. */
  private void keyed(Map.Entry<?, ?>[] entries) {
    var keyed = new Keyed[entries.length];
    for (int i = 0; i < entries.length; i++) {
      keyed[i] = new Keyed(encode(entries[i].getKey()), entries[i].getValue());
    }
    Arrays.sort(keyed, (a, b) -> Arrays.compare(a.key(), b.key()));
    sink.writeByte('M');
    sink.writeInt(keyed.length);
    for (Keyed entry : keyed) {
      sink.write(entry.key());
      write(entry.value());
    }
  }
}
