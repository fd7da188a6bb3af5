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
 * The libc calls the engine makes, bound once. Calls that set {@code errno} capture it and return a
 * {@link Result}; callers check it and build their message from it.
 */
@SuppressWarnings("restricted") // FFM by design: native addresses from libc and UCX
public final class Libc {
  private Libc() {}

  public static final int PROT_NONE = 0;
  public static final int PROT_READ = 1;
  public static final int PROT_WRITE = 2;
  public static final int MAP_SHARED = 0x01;
  public static final int MAP_PRIVATE = 0x02;
  public static final int MAP_FIXED = 0x10;
  public static final int MAP_ANONYMOUS = 0x20;
  public static final int MAP_NORESERVE = 0x4000;
  public static final long MAP_FAILED = -1L;
  public static final int O_RDONLY = 0;
  public static final int O_RDWR = 2;
  public static final int O_CREAT = 0x40;
  public static final int O_EXCL = 0x80;
  public static final int SEEK_END = 2;
  public static final int POLLIN = 1;
  public static final int RLIMIT_MEMLOCK = 8;
  public static final int ENOENT = 2;
  public static final int EFAULT = 14;
  public static final int EINTR = 4;
  public static final int EAGAIN = 11;
  public static final int ENOMEM = 12;
  public static final int EPERM = 1;
  public static final int EACCES = 13;
  public static final int EINVAL = 22;
  public static final int ENOSPC = 28;
  public static final int ESRCH = 3;

  /** The result of a call that sets errno: the raw return value and errno after it. */
  public record Result(long value, int errno) {
    /** libc's failure convention: -1. */
    public boolean failed() {
      return value == -1;
    }

    /** {@code errno 12 (Cannot allocate memory)}. */
    public String describe() {
      return "errno " + errno + " (" + strerror(errno) + ")";
    }
  }

  private static final Linker LINKER = Linker.nativeLinker();
  private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
  private static final VarHandle ERRNO =
      CAPTURE.varHandle(PathElement.groupElement("errno"));
  private static final Linker.Option WITH_ERRNO = Linker.Option.captureCallState("errno");

  private static final MethodHandle MMAP = bindErrno("mmap",
      FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
  private static final MethodHandle MUNMAP = bindErrno("munmap",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));
  private static final MethodHandle MLOCK = bindErrno("mlock",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));
  private static final MethodHandle MUNLOCK = bindErrno("munlock",
      FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));
  private static final MethodHandle SHM_OPEN = bindErrno("shm_open",
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
  private static final MethodHandle SHM_UNLINK = bindErrno("shm_unlink",
      FunctionDescriptor.of(JAVA_INT, ADDRESS));
  private static final MethodHandle CLOSE = bindErrno("close",
      FunctionDescriptor.of(JAVA_INT, JAVA_INT));
  private static final MethodHandle LSEEK = bindErrno("lseek",
      FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT));
  private static final MethodHandle FTRUNCATE = bindErrno("ftruncate",
      FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG));
  private static final MethodHandle PROCESS_VM_WRITEV = bindErrno("process_vm_writev",
      FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG));
  private static final MethodHandle PROCESS_VM_READV = bindErrno("process_vm_readv",
      FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG));
  private static final MethodHandle POLL = bindErrno("poll",
      FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
  private static final MethodHandle GETRLIMIT = bindErrno("getrlimit",
      FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
  private static final MethodHandle SETRLIMIT = bindErrno("setrlimit",
      FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
  private static final MethodHandle GETPID = bind("getpid", FunctionDescriptor.of(JAVA_INT));
  private static final MethodHandle STRERROR = bind("strerror",
      FunctionDescriptor.of(ADDRESS, JAVA_INT));
  private static final MethodHandle SETENV = bind("setenv",
      FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
  private static final MethodHandle SYSCONF = bind("sysconf",
      FunctionDescriptor.of(JAVA_LONG, JAVA_INT));
  private static final MethodHandle OPEN_MEMSTREAM = bind("open_memstream",
      FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
  private static final MethodHandle FCLOSE = bind("fclose", FunctionDescriptor.of(JAVA_INT, ADDRESS));
  private static final MethodHandle FREE = bind("free", FunctionDescriptor.ofVoid(ADDRESS));

  private static final int SC_PAGESIZE = 30;
  private static final long PAGE_SIZE = sysconf(SC_PAGESIZE);

  /** The system page size. */
  public static long pageSize() {
    return PAGE_SIZE;
  }

  public static Result mmap(long address, long length, int prot, int flags, int fd, long offset) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment state = arena.allocate(CAPTURE);
      long value = (long) MMAP.invokeExact(state, address, length, prot, flags, fd, offset);
      return new Result(value, errno(state));
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  public static Result munmap(long address, long length) {
    return callAddressLength(MUNMAP, address, length);
  }

  public static Result mlock(long address, long length) {
    return callAddressLength(MLOCK, address, length);
  }

  public static Result munlock(long address, long length) {
    return callAddressLength(MUNLOCK, address, length);
  }

  public static Result shmOpen(String name, int flags, int mode) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment state = arena.allocate(CAPTURE);
      int fd = (int) SHM_OPEN.invokeExact(state, arena.allocateFrom(name), flags, mode);
      return new Result(fd, errno(state));
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  public static Result shmUnlink(String name) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment state = arena.allocate(CAPTURE);
      int value = (int) SHM_UNLINK.invokeExact(state, arena.allocateFrom(name));
      return new Result(value, errno(state));
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  public static Result close(int fd) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment state = arena.allocate(CAPTURE);
      int value = (int) CLOSE.invokeExact(state, fd);
      return new Result(value, errno(state));
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /** The size of an open file (lseek to its end). */
  public static Result fileSize(int fd) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment state = arena.allocate(CAPTURE);
      long value = (long) LSEEK.invokeExact(state, fd, 0L, SEEK_END);
      return new Result(value, errno(state));
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  public static Result ftruncate(int fd, long length) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment state = arena.allocate(CAPTURE);
      int value = (int) FTRUNCATE.invokeExact(state, fd, length);
      return new Result(value, errno(state));
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /** {@code process_vm_writev}: iovec arrays of {@link #IOVEC} entries. */
  public static Result processVmWritev(
      int pid, MemorySegment local, long localCount, MemorySegment remote, long remoteCount) {
    return processVm(PROCESS_VM_WRITEV, pid, local, localCount, remote, remoteCount);
  }

  /** {@code process_vm_readv}: iovec arrays of {@link #IOVEC} entries. */
  public static Result processVmReadv(
      int pid, MemorySegment local, long localCount, MemorySegment remote, long remoteCount) {
    return processVm(PROCESS_VM_READV, pid, local, localCount, remote, remoteCount);
  }

  /** {@code struct iovec}: base pointer and length. */
  public static final StructLayout IOVEC = java.lang.foreign.MemoryLayout.structLayout(
      JAVA_LONG.withName("iov_base"), JAVA_LONG.withName("iov_len"));

  /** Waits up to {@code timeoutMillis} for {@code fd} to become readable. */
  public static Result pollReadable(int fd, int timeoutMillis) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment state = arena.allocate(CAPTURE);
      MemorySegment pollfd = arena.allocate(8, 4);
      pollfd.set(JAVA_INT, 0, fd);
      pollfd.set(java.lang.foreign.ValueLayout.JAVA_SHORT, 4, (short) POLLIN);
      int value = (int) POLL.invokeExact(state, pollfd, 1L, timeoutMillis);
      return new Result(value, errno(state));
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /** The soft and hard limit of a resource; {@code -1} is unlimited. */
  public static long[] getrlimit(int resource) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment state = arena.allocate(CAPTURE);
      MemorySegment limits = arena.allocate(16, 8);
      int value = (int) GETRLIMIT.invokeExact(state, resource, limits);
      if (value != 0) {
        throw new IllegalStateException("getrlimit(" + resource + ") failed: errno " + errno(state));
      }
      return new long[] {limits.get(JAVA_LONG, 0), limits.get(JAVA_LONG, 8)};
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /** Sets the soft and hard limit of a resource. */
  public static Result setrlimit(int resource, long soft, long hard) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment state = arena.allocate(CAPTURE);
      MemorySegment limits = arena.allocate(16, 8);
      limits.set(JAVA_LONG, 0, soft);
      limits.set(JAVA_LONG, 8, hard);
      int value = (int) SETRLIMIT.invokeExact(state, resource, limits);
      return new Result(value, errno(state));
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  public static int getpid() {
    try {
      return (int) GETPID.invokeExact();
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /** The C library's message for an errno value. */
  public static String strerror(int errno) {
    try {
      MemorySegment text = (MemorySegment) STRERROR.invokeExact(errno);
      return text.equals(MemorySegment.NULL) ? "errno " + errno : text.reinterpret(256).getString(0);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /** Sets an environment variable of this process unless it is already set. */
  public static void setenvIfAbsent(String name, String value) {
    try (var arena = Arena.ofConfined()) {
      int status = (int) SETENV.invokeExact(arena.allocateFrom(name), arena.allocateFrom(value), 0);
      if (status != 0) {
        throw new IllegalStateException("setenv(" + name + ") failed with " + status);
      }
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  static long sysconf(int name) {
    try {
      return (long) SYSCONF.invokeExact(name);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  static MemorySegment openMemstream(MemorySegment bufferOut, MemorySegment sizeOut) {
    try {
      return (MemorySegment) OPEN_MEMSTREAM.invokeExact(bufferOut, sizeOut);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  static int fclose(MemorySegment file) {
    try {
      return (int) FCLOSE.invokeExact(file);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  static void free(MemorySegment pointer) {
    try {
      FREE.invokeExact(pointer);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  private static Result callAddressLength(MethodHandle handle, long address, long length) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment state = arena.allocate(CAPTURE);
      int value = (int) handle.invokeExact(state, address, length);
      return new Result(value, errno(state));
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  private static Result processVm(MethodHandle handle, int pid, MemorySegment local,
      long localCount, MemorySegment remote, long remoteCount) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment state = arena.allocate(CAPTURE);
      long value = (long) handle.invokeExact(state, pid, local, localCount, remote, remoteCount, 0L);
      return new Result(value, errno(state));
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  private static int errno(MemorySegment state) {
    return (int) ERRNO.get(state, 0L);
  }

  private static MethodHandle bind(String name, FunctionDescriptor descriptor) {
    return LINKER.downcallHandle(find(name), descriptor);
  }

  private static MethodHandle bindErrno(String name, FunctionDescriptor descriptor) {
    return LINKER.downcallHandle(find(name), descriptor, WITH_ERRNO);
  }

  private static MemorySegment find(String name) {
    return LINKER.defaultLookup().find(name)
        .orElseThrow(() -> new UnsatisfiedLinkError("libc has no symbol " + name));
  }
}
