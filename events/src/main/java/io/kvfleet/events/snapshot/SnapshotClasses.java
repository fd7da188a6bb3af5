package io.kvfleet.events.snapshot;

import io.kvfleet.events.BackendCapability;
import io.kvfleet.events.ByteRange;
import io.kvfleet.events.DispatchedOrder;
import io.kvfleet.events.DispatchedPart;
import io.kvfleet.events.LayoutComponent;
import io.kvfleet.events.MemoryType;
import io.kvfleet.events.ModelLayoutDeclared;
import io.kvfleet.events.OpaqueEvent;
import io.kvfleet.events.PeerHeartbeat;
import io.kvfleet.events.PeerJoined;
import io.kvfleet.events.PeerLeft;
import io.kvfleet.events.PeerLost;
import io.kvfleet.events.PartOutcome;
import io.kvfleet.events.RegionDeregistered;
import io.kvfleet.events.RegionKind;
import io.kvfleet.events.RegionRegistered;
import io.kvfleet.events.RegionSkipped;
import io.kvfleet.events.RegionSpec;
import io.kvfleet.events.RegistrationDecision;
import io.kvfleet.events.RegistrationFailed;
import io.kvfleet.events.RequestPart;
import io.kvfleet.events.TransferCompleted;
import io.kvfleet.events.TransferDispatched;
import io.kvfleet.events.TransferFailed;
import io.kvfleet.events.TransferOp;
import io.kvfleet.events.TransferRejected;
import io.kvfleet.events.TransferRequested;
import io.kvfleet.events.TransferTimedOut;
import io.kvfleet.events.state.PeerStatus;
import io.kvfleet.events.state.PeerView;
import io.kvfleet.events.state.Recent;
import io.kvfleet.events.state.RegionKey;
import io.kvfleet.events.state.RegionStatus;
import io.kvfleet.events.state.RegionView;
import io.kvfleet.events.state.Sequences;
import io.kvfleet.events.state.StaleRegistration;
import io.kvfleet.events.state.StateImage;
import io.kvfleet.events.state.TransferStatus;
import io.kvfleet.events.state.TransferView;
import io.kvfleet.events.state.Violation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;

/**
 * The only classes a snapshot may hold, in a fixed order (a snapshot names them by index), and
 * how each is taken apart and built again. A snapshot writes the shape of every class it may
 * use; a reader refuses one whose shapes differ from this build's, so a record that gained or
 * lost a field makes old snapshots incompatible instead of misread.
 */
final class SnapshotClasses {
  private SnapshotClasses() {}

  static final List<Class<?>> ALL = List.of(
      StateImage.class, PeerView.class, RegionView.class, RegionKey.class, TransferView.class,
      StaleRegistration.class, Violation.class, Sequences.Producer.class, Sequences.Seen.class,
      Sequences.Run.class, RegionSpec.class, BackendCapability.class, ByteRange.class,
      PeerJoined.class, PeerHeartbeat.class, PeerLost.class, PeerLeft.class, RegionRegistered.class,
      RegistrationFailed.class, RegionSkipped.class, RegionDeregistered.class,
      RegistrationDecision.class, TransferRequested.class, TransferRejected.class,
      TransferDispatched.class, TransferCompleted.class, TransferFailed.class,
      TransferTimedOut.class, OpaqueEvent.class, MemoryType.class, RegionKind.class,
      TransferOp.class, PeerStatus.class, RegionStatus.class, TransferStatus.class, Recent.Kept.class,
      ModelLayoutDeclared.class, LayoutComponent.class, RequestPart.class, PartOutcome.class,
      DispatchedOrder.class, DispatchedPart.class);

  private static final ClassValue<Shape> SHAPES =
      new ClassValue<>() {
        @Override
        protected Shape computeValue(Class<?> type) {
          return Shape.of(type);
        }
      };

  static int indexOf(Class<?> type) {
    int index = ALL.indexOf(type);
    if (index < 0) {
      throw new IllegalStateException(type + " is not a snapshot class; add it to SnapshotClasses.ALL");
    }
    return index;
  }

  static Shape shape(Class<?> type) {
    return SHAPES.get(type);
  }

  /**
   * How a class looks: for a record, its component names and generic types, its accessors and its
   * canonical constructor; for an enum, its constant names.
   */
  record Shape(Class<?> type, List<String> description, MethodHandle[] accessors, MethodHandle constructor) {
    static Shape of(Class<?> type) {
      if (type.isEnum()) {
        var names = Arrays.stream(type.getEnumConstants()).map(c -> ((Enum<?>) c).name()).toList();
        return new Shape(type, names, new MethodHandle[0], null);
      }
      RecordComponent[] components = type.getRecordComponents();
      var accessors = new MethodHandle[components.length];
      var types = new Class<?>[components.length];
      try {
        var lookup = MethodHandles.lookup();
        for (int i = 0; i < components.length; i++) {
          var accessor = components[i].getAccessor();
          accessor.setAccessible(true); // any record a state holds, public or not
          accessors[i] = lookup.unreflect(accessor).asType(
              java.lang.invoke.MethodType.methodType(Object.class, Object.class));
          types[i] = components[i].getType();
        }
        var constructor = type.getDeclaredConstructor(types);
        constructor.setAccessible(true);
        var handle = lookup.unreflectConstructor(constructor);
        handle = handle.asType(handle.type().generic()).asSpreader(Object[].class, components.length);
        return new Shape(type, Arrays.stream(components).map(Shape::describe).toList(), accessors, handle);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("cannot take " + type + " apart", e);
      }
    }

    private static String describe(RecordComponent component) {
      return component.getName() + ":" + component.getGenericType().getTypeName();
    }

    boolean isEnum() {
      return type.isEnum();
    }
  }
}
