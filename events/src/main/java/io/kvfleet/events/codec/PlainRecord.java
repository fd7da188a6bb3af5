package io.kvfleet.events.codec;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Executable;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A record read from plain JSON ({@link PlainJson}) as Jackson binds it with the codec's settings:
 * every component once, by its name, in any order, nothing else; strings, enums by constant name,
 * {@code int} and {@code long} from plain integers, booleans, nested records and lists of these;
 * {@code null} for a reference component. The canonical constructor makes it, so its checks run as
 * they do under Jackson; where one throws, or a value is of any other kind, Jackson decides. A
 * type with any Jackson annotation, its own or a supertype's (a renamed property, a creator, its
 * own deserializer), is never scanned: those are rules this class does not know. Nor is a record
 * that holds itself, directly or through others: its nesting would have no bound but the document's.
 */
final class PlainRecord {
  private static final ClassValue<PlainRecord> SHAPES = new ClassValue<>() {
    @Override
    protected PlainRecord computeValue(Class<?> type) {
      return new PlainRecord(type);
    }
  };

  /** What a component holds. */
  private sealed interface Kind {}

  private record Text() implements Kind {}

  private record Whole(int digits, boolean isInt) implements Kind {}

  private record Bool() implements Kind {}

  private record Constant(Map<String, Enum<?>> byName) implements Kind {}

  private record Nested(Class<?> type) implements Kind {}

  private record Listed(Kind element) implements Kind {}

  private record Other() implements Kind {}

  private final byte[][] names;
  private final Kind[] kinds;
  private final MethodHandle constructor;
  private final boolean annotated;

  private PlainRecord(Class<?> type) {
    RecordComponent[] components = type.getRecordComponents();
    annotated = jacksonAnnotated(type) || !acyclic(type, new HashSet<>());
    names = new byte[components.length][];
    kinds = new Kind[components.length];
    var types = new Class<?>[components.length];
    for (int i = 0; i < components.length; i++) {
      names[i] = components[i].getName().getBytes(StandardCharsets.US_ASCII);
      kinds[i] = kind(components[i].getGenericType());
      types[i] = components[i].getType();
    }
    try {
      var lookup = MethodHandles.privateLookupIn(type, MethodHandles.lookup());
      constructor = lookup.findConstructor(type, MethodType.methodType(void.class, types))
          .asSpreader(Object[].class, components.length)
          .asType(MethodType.methodType(Object.class, Object[].class));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("no canonical constructor in " + type, e);
    }
  }

  /** The record of {@code type} at the cursor, an object. */
  static <T> T read(PlainJson in, Class<T> type) {
    return type.cast(SHAPES.get(type).read(in));
  }

  private Object read(PlainJson in) {
    if (annotated || names.length > 63) {
      throw PlainJson.NOT_PLAIN; // Jackson's own rules, or more components than the mask below holds
    }
    var values = new Object[names.length];
    long seen = 0;
    in.expect('{');
    if (!in.skip('}')) {
      int next = 0;
      do {
        int i = in.name(names, next);
        if ((seen & (1L << i)) != 0) {
          throw PlainJson.NOT_PLAIN; // a name repeated: Jackson refuses it
        }
        seen |= 1L << i;
        values[i] = value(in, kinds[i]);
        next = i + 1 == names.length ? 0 : i + 1;
      } while (in.skip(','));
      in.expect('}');
    }
    if (Long.bitCount(seen) != names.length) {
      throw PlainJson.NOT_PLAIN; // a component missing: Jackson refuses it
    }
    try {
      return constructor.invokeExact(values);
    } catch (RuntimeException e) {
      throw PlainJson.NOT_PLAIN; // the record's own checks: Jackson gives its verdict
    } catch (Throwable e) {
      throw new IllegalStateException("cannot make a record", e);
    }
  }

  private static Object value(PlainJson in, Kind kind) {
    return switch (kind) {
      case Text t -> in.skipNull() ? null : in.string();
      case Whole w -> w.isInt() ? (Object) (int) in.integer(w.digits()) : (Object) in.integer(w.digits());
      case Bool b -> in.bool();
      case Constant c -> {
        if (in.skipNull()) {
          yield null;
        }
        Enum<?> constant = c.byName().get(in.string());
        if (constant == null) {
          throw PlainJson.NOT_PLAIN;
        }
        yield constant;
      }
      case Nested n -> in.skipNull() ? null : SHAPES.get(n.type()).read(in);
      case Listed l -> in.skipNull() ? null : list(in, l.element());
      case Other o -> throw PlainJson.NOT_PLAIN;
    };
  }

  private static List<Object> list(PlainJson in, Kind element) {
    var list = new ArrayList<>();
    in.expect('[');
    if (in.skip(']')) {
      return list;
    }
    do {
      Object value = value(in, element);
      if (value == null) {
        throw PlainJson.NOT_PLAIN;
      }
      list.add(value);
    } while (in.skip(','));
    in.expect(']');
    return list;
  }

  private static Kind kind(Type type) {
    if (type == String.class) {
      return new Text();
    }
    if (type == long.class) {
      return new Whole(18, false);
    }
    if (type == int.class) {
      return new Whole(9, true);
    }
    if (type == boolean.class) {
      return new Bool();
    }
    if (type instanceof Class<?> c && c.isEnum() && !jacksonAnnotated(c)) {
      var byName = new HashMap<String, Enum<?>>();
      for (Object constant : c.getEnumConstants()) {
        byName.put(((Enum<?>) constant).name(), (Enum<?>) constant);
      }
      return new Constant(Map.copyOf(byName));
    }
    if (type instanceof Class<?> c && c.isRecord() && !jacksonAnnotated(c) && acyclic(c, new HashSet<>())) {
      return new Nested(c); // a null of it is null, as for any record Jackson binds itself
    }
    if (type instanceof ParameterizedType p && p.getRawType() == List.class) {
      Type element = p.getActualTypeArguments()[0];
      // Boxed elements, as Jackson binds them; a list of a primitive type cannot be declared.
      return new Listed(element == Integer.class ? kind(int.class) : element == Long.class ? kind(long.class)
          : element == Boolean.class ? kind(boolean.class) : kind(element));
    }
    return new Other();
  }

  /** Whether no record reachable from the record {@code type}'s components holds one on {@code path}. */
  private static boolean acyclic(Class<?> type, Set<Class<?>> path) {
    if (!path.add(type)) {
      return false;
    }
    for (RecordComponent component : type.getRecordComponents()) {
      for (Class<?> held : records(component.getGenericType())) {
        if (!acyclic(held, path)) {
          return false;
        }
      }
    }
    path.remove(type);
    return true;
  }

  /** The record types {@code type} names, itself or as a type argument at any depth. */
  private static List<Class<?>> records(Type type) {
    if (type instanceof Class<?> c) {
      return c.isRecord() ? List.of(c) : List.of();
    }
    if (type instanceof ParameterizedType p) {
      return Stream.of(p.getActualTypeArguments()).flatMap(t -> records(t).stream()).toList();
    }
    return List.of();
  }

  /** Whether {@code type}, a supertype of it, or a member or parameter of one carries an annotation of Jackson's. */
  private static boolean jacksonAnnotated(Class<?> type) {
    if (type == null || type == Object.class || type == Record.class || type == Enum.class) {
      return false;
    }
    return ownJacksonAnnotation(type) || jacksonAnnotated(type.getSuperclass())
        || Stream.of(type.getInterfaces()).anyMatch(PlainRecord::jacksonAnnotated);
  }

  private static boolean ownJacksonAnnotation(Class<?> type) {
    var elements = new ArrayList<AnnotatedElement>(List.of(type));
    elements.addAll(List.of(type.getDeclaredFields()));
    for (Executable e : Stream.concat(Stream.of(type.getDeclaredConstructors()), Stream.of(type.getDeclaredMethods()))
        .toList()) {
      elements.add(e);
      elements.addAll(List.of(e.getParameters()));
    }
    if (type.isRecord()) {
      elements.addAll(List.of(type.getRecordComponents()));
    }
    return elements.stream().flatMap(e -> Stream.of(e.getDeclaredAnnotations()))
        .anyMatch(a -> a.annotationType().getPackageName().startsWith("com.fasterxml.jackson"));
  }
}
