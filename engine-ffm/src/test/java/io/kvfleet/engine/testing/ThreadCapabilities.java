package io.kvfleet.engine.testing;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * Drops a Linux capability from the calling thread's effective set for the length of an action
 * (capabilities are per thread), so that a test running as root still meets RLIMIT_MEMLOCK.
 */
public final class ThreadCapabilities {
  private ThreadCapabilities() {}

  public static final int CAP_IPC_LOCK = 14;
  private static final int VERSION_3 = 0x20080522;
  private static final Linker LINKER = Linker.nativeLinker();
  private static final MethodHandle CAPGET = bind("capget");
  private static final MethodHandle CAPSET = bind("capset");

  /** Whether the calling thread has {@code capability} in its effective set. */
  public static boolean effective(int capability) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment header = header(arena);
      MemorySegment data = arena.allocate(24, 4);
      call(CAPGET, header, data);
      return (data.get(JAVA_INT, 0) & (1 << capability)) != 0;
    }
  }

  /** Runs {@code action} on this thread without {@code capability} in the effective set. */
  public static void without(int capability, Runnable action) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment header = header(arena);
      MemorySegment data = arena.allocate(24, 4);
      call(CAPGET, header, data);
      int effective = data.get(JAVA_INT, 0);
      data.set(JAVA_INT, 0, effective & ~(1 << capability));
      call(CAPSET, header(arena), data);
      try {
        action.run();
      } finally {
        data.set(JAVA_INT, 0, effective);
        call(CAPSET, header(arena), data);
      }
    }
  }

  private static MemorySegment header(Arena arena) {
    MemorySegment header = arena.allocate(8, 4);
    header.set(JAVA_INT, 0, VERSION_3);
    header.set(JAVA_INT, 4, 0);
    return header;
  }

  private static void call(MethodHandle handle, MemorySegment header, MemorySegment data) {
    try {
      int status = (int) handle.invokeExact(header, data);
      if (status != 0) {
        throw new IllegalStateException("capget/capset failed with " + status);
      }
    } catch (Throwable t) {
      throw t instanceof RuntimeException r ? r : new IllegalStateException(t);
    }
  }

  private static MethodHandle bind(String name) {
    return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(),
        FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
  }
}
