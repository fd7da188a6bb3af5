package io.kvfleet.events.state;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Changes one field of a record, however deep, into another valid value. */
final class Mutations {
  private Mutations() {}

  /** The value with one field changed; {@code choice} picks which. Empty when nothing can change. */
  static Optional<Object> mutate(Object value, int choice) {
    return switch (value) {
      case String s -> Optional.of(s + "~");
      case Long n -> Optional.of(n == Long.MAX_VALUE ? n - 1 : n + 1);
      case Integer n -> Optional.of(n == Integer.MAX_VALUE ? n - 1 : n + 1);
      case Boolean b -> Optional.of(!b);
      case Enum<?> e -> Optional.of(next(e));
      case List<?> list ->
          list.isEmpty()
              ? Optional.empty()
              : mutate(list.getFirst(), choice).map(first -> withFirst(list, first));
      case Record r -> mutateRecord(r, choice);
      default -> Optional.empty();
    };
  }

  private static Object next(Enum<?> e) {
    Object[] constants = e.getDeclaringClass().getEnumConstants();
    return constants[(e.ordinal() + 1) % constants.length];
  }

  private static List<Object> withFirst(List<?> list, Object first) {
    var copy = new ArrayList<Object>(list);
    copy.set(0, first);
    return List.copyOf(copy);
  }

  private static Optional<Object> mutateRecord(Record r, int choice) {
    RecordComponent[] components = r.getClass().getRecordComponents();
    for (int k = 0; k < components.length; k++) {
      int index = Math.floorMod(choice + k, components.length);
      Object[] values = values(r, components);
      Optional<Object> changed = mutate(values[index], choice / components.length);
      if (changed.isPresent()) {
        values[index] = changed.get();
        Optional<Object> rebuilt = construct(r, components, values);
        if (rebuilt.isPresent()) {
          return rebuilt;
        }
      }
    }
    return Optional.empty();
  }

  private static Object[] values(Record r, RecordComponent[] components) {
    var values = new Object[components.length];
    try {
      for (int i = 0; i < components.length; i++) {
        values[i] = components[i].getAccessor().invoke(r);
      }
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
    return values;
  }

  private static Optional<Object> construct(Record r, RecordComponent[] components, Object[] values) {
    Class<?>[] types = new Class<?>[components.length];
    for (int i = 0; i < components.length; i++) {
      types[i] = components[i].getType();
    }
    try {
      return Optional.of(r.getClass().getDeclaredConstructor(types).newInstance(values));
    } catch (InvocationTargetException e) {
      return Optional.empty(); // the change broke the record's own validation
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }
}
