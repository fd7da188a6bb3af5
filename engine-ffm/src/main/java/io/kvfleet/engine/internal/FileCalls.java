package io.kvfleet.engine.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The file calls a host grant needs, bound once: {@code open} with {@code O_NOFOLLOW}, {@code
 * fstat} on the descriptor it returned (so the checks are of the file that will be mapped, not of
 * a name that may change under them) and {@code geteuid}. Linux x86-64 {@code struct stat}.
 */
@SuppressWarnings("restricted") // FFM by design: libc file calls
public final class FileCalls {
  private FileCalls() {}

  public static final int O_NOFOLLOW = 0x20000;
  public static final int O_CLOEXEC = 0x80000;
  private static final int S_IFMT = 0xF000;
  private static final int S_IFREG = 0x8000;
  private static final long STAT_SIZE = 144;

  /** What {@code fstat} says of an open file. */
  public record Stat(long inode, int mode, int uid, long size) {
    /** Whether it is a regular file (not a device, directory, FIFO or socket). */
    public boolean regular() {
      return (mode & S_IFMT) == S_IFREG;
    }
  }

  /** The outcome of {@link #fstat}: the stat, or the errno. */
  public record StatResult(Stat stat, int errno) {}

  private static final Linker LINKER = Linker.nativeLinker();
  private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
  private static final VarHandle ERRNO = CAPTURE.varHandle(PathElement.groupElement("errno"));
  private static final Linker.Option WITH_ERRNO = Linker.Option.captureCallState("errno");
  private static final MethodHandle OPEN = LINKER.downcallHandle(find("open"),
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), WITH_ERRNO,
      Linker.Option.firstVariadicArg(2));
  private static final MethodHandle FSTAT = LINKER.downcallHandle(find("fstat"),
      FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS), WITH_ERRNO);
  private static final MethodHandle FALLOCATE = LINKER.downcallHandle(find("posix_fallocate"),
      FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG));
  private static final MethodHandle KILL = LINKER.downcallHandle(find("kill"),
      FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
  private static final MethodHandle GETEUID = LINKER.downcallHandle(find("geteuid"),
      FunctionDescriptor.of(JAVA_INT));

  /** {@code open(path, flags, 0600)}; the descriptor or -1 with errno. */
  public static Libc.Result open(String path, int flags) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment state = arena.allocate(CAPTURE);
      int fd = (int) OPEN.invokeExact(state, arena.allocateFrom(path), flags, 0600);
      return new Libc.Result(fd, (int) ERRNO.get(state, 0L));
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /** {@code fstat(fd)}. */
  public static StatResult fstat(int fd) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment state = arena.allocate(CAPTURE);
      MemorySegment buffer = arena.allocate(STAT_SIZE, 8);
      int value = (int) FSTAT.invokeExact(state, fd, buffer);
      if (value != 0) {
        return new StatResult(null, (int) ERRNO.get(state, 0L));
      }
      return new StatResult(new Stat(buffer.get(JAVA_LONG, 8), buffer.get(JAVA_INT, 24),
          buffer.get(JAVA_INT, 28), buffer.get(JAVA_LONG, 48)), 0);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /**
   * {@code posix_fallocate(fd, 0, length)}: the pages exist once it returns 0 (else the error
   * number), so touching them later cannot fault for want of space in {@code /dev/shm}.
   */
  public static int fallocate(int fd, long length) {
    try {
      return (int) FALLOCATE.invokeExact(fd, 0L, length);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /**
   * {@code kill(pid, 0)} of a process of this user: whether it still exists (no errno captured, so
   * nothing is allocated: it runs once per batch).
   */
  public static boolean exists(int pid) {
    try {
      return (int) KILL.invokeExact(pid, 0) == 0;
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /** This process's effective user id. */
  public static int geteuid() {
    try {
      return (int) GETEUID.invokeExact();
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  private static MemorySegment find(String name) {
    return LINKER.defaultLookup().find(name)
        .orElseThrow(() -> new UnsatisfiedLinkError("libc has no symbol " + name));
  }
}
