package io.kvfleet.events.snapshot;

import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.RecordComponent;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * A record class as {@link Canonical} writes it: its tagged simple name, and its components, each with
 * its tagged name and a reader spun once per class. A reader is a lambda over the accessor, called as
 * an interface: a method handle that is not a constant is not inlined, and it boxed every primitive.
 *
 * @param taggedName 'R', the length and the UTF-8 of the class's simple name
 * @param components in declaration order
 */
record RecordShape(byte[] taggedName, RecordShape.Component[] components) {
  /** How a component is read: an {@code int} or {@code long}, a {@code boolean}, a string, or anything. */
  enum Kind { NUMBER, BOOLEAN, STRING, VALUE }

  /** A component: its tagged name, written before its value, and the one reader of its kind. */
  record Component(
      byte[] taggedName, Kind kind, ToLongFunction<Record> number, Predicate<Record> flag,
      Function<Record, Object> value) {}

  private static final ClassValue<RecordShape> SHAPES =
      new ClassValue<>() {
        @Override
        protected RecordShape computeValue(Class<?> type) {
          return shapeOf(type);
        }
      };

  /** The shape of the record class {@code type}. */
  static RecordShape of(Class<?> type) {
    return SHAPES.get(type);
  }

  private static RecordShape shapeOf(Class<?> type) {
    RecordComponent[] components = type.getRecordComponents();
    var shape = new Component[components.length];
    for (int i = 0; i < components.length; i++) {
      try {
        shape[i] = componentOf(MethodHandles.privateLookupIn(type, MethodHandles.lookup()), components[i]);
      } catch (Throwable e) {
        throw new IllegalStateException("cannot read " + components[i], e);
      }
    }
    return new RecordShape(CanonicalSink.tagged('R', type.getSimpleName()), shape);
  }

  @SuppressWarnings("unchecked")
  private static Component componentOf(MethodHandles.Lookup lookup, RecordComponent component) throws Throwable {
    byte[] name = CanonicalSink.tagged('C', component.getName());
    MethodHandle accessor = lookup.unreflect(component.getAccessor());
    Class<?> declared = component.getType();
    if (declared == long.class || declared == int.class) { // an int widened: written as a long, as a boxed Integer was
      var read = (ToLongFunction<Record>) reader(lookup, accessor, ToLongFunction.class, "applyAsLong", long.class);
      return new Component(name, Kind.NUMBER, read, null, null);
    }
    if (declared == boolean.class) {
      var read = (Predicate<Record>) reader(lookup, accessor, Predicate.class, "test", boolean.class);
      return new Component(name, Kind.BOOLEAN, null, read, null);
    }
    var read = (Function<Record, Object>) reader(lookup, accessor, Function.class, "apply", Object.class);
    return new Component(name, declared == String.class ? Kind.STRING : Kind.VALUE, null, null, read);
  }

  /** An instance of {@code face} whose method {@code name} calls {@code accessor}. */
  private static Object reader(
      MethodHandles.Lookup lookup, MethodHandle accessor, Class<?> face, String name, Class<?> returns)
      throws Throwable {
    return LambdaMetafactory.metafactory(lookup, name, MethodType.methodType(face),
        MethodType.methodType(returns, Object.class), accessor, accessor.type().changeReturnType(returns))
        .getTarget().invoke();
  }
}
