package io.kvfleet.engine.internal;

import io.kvfleet.engine.Diagnosis;
import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.RegistrationFailure;

/**
 * A POSIX shared-memory object mapped read-write into this process. One owner; {@link #close()}
 * lets the object go and leaves private pages at its range.
 */
public final class SharedMapping implements AutoCloseable {
  private final String name;
  private final long address;
  private final long length;
  private boolean closed;

  private SharedMapping(String name, long address, long length) {
    this.name = name;
    this.address = address;
    this.length = length;
  }

  /** Either a mapping or why there is none. */
  public sealed interface Opened {}

  /** The object is mapped. */
  public record Mapped(SharedMapping mapping) implements Opened {}

  /** The object could not be mapped. */
  public record NotMapped(Diagnosis diagnosis) implements Opened {}

  /** Maps the whole object {@code name}; the caller checks offsets against {@link #length()}. */
  public static Opened open(String name) {
    Libc.Result fd = Libc.shmOpen(name, Libc.O_RDWR, 0);
    if (fd.failed()) {
      RegistrationFailure reason = fd.errno() == Libc.ENOENT
          ? RegistrationFailure.INVALID_ADDRESS
          : RegistrationFailure.BACKEND_ERROR;
      return new NotMapped(Diagnosis.ofNative(reason,
          "shm_open(\"" + name + "\", O_RDWR) failed", fd.errno(), Libc.strerror(fd.errno())));
    }
    int descriptor = (int) fd.value();
    try {
      Libc.Result size = Libc.fileSize(descriptor);
      if (size.failed()) {
        return new NotMapped(Diagnosis.ofNative(RegistrationFailure.BACKEND_ERROR,
            "lseek on shared memory " + name + " failed", size.errno(), Libc.strerror(size.errno())));
      }
      if (size.value() == 0) {
        return new NotMapped(Diagnosis.of(RegistrationFailure.INVALID_ADDRESS,
            "shared memory " + name + " is empty (0 bytes)"));
      }
      Libc.Result mapped = Libc.mmap(0, size.value(), Libc.PROT_READ | Libc.PROT_WRITE,
          Libc.MAP_SHARED, descriptor, 0);
      if (mapped.value() == Libc.MAP_FAILED) {
        RegistrationFailure reason = mapped.errno() == Libc.ENOMEM
            ? RegistrationFailure.OUT_OF_MEMORY
            : RegistrationFailure.BACKEND_ERROR;
        return new NotMapped(Diagnosis.ofNative(reason,
            "mmap of shared memory " + name + " (" + size.value() + " bytes) failed",
            mapped.errno(), Libc.strerror(mapped.errno())));
      }
      return new Mapped(new SharedMapping(name, mapped.value(), size.value()));
    } finally {
      Libc.close(descriptor);
    }
  }

  public String name() {
    return name;
  }

  public long address() {
    return address;
  }

  public long length() {
    return length;
  }

  /**
   * Lets the object go. A peer may still hold a remote key to this range (UCX caches an attached key, and
   * UCX 1.13 serves a put to it unchecked): the range is not unmapped but mapped over with private
   * anonymous pages (no swap reserved), so a late write lands where nobody reads it instead of faulting
   * the agent (SIGSEGV in its UCX progress) or reaching whatever the kernel maps at the address next. The
   * range stays taken until {@link ParkedRanges} lets it go (the oldest past 4,096 ranges or 16 TiB); its
   * pages cost memory only once written.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    Libc.Result result = Libc.mmap(address, length, Libc.PROT_READ | Libc.PROT_WRITE,
        Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS | Libc.MAP_FIXED | Libc.MAP_NORESERVE, -1, 0);
    if (result.value() == Libc.MAP_FAILED) {
      throw EngineException.nativeCallFailed("mmap over", result.errno(),
          Libc.strerror(result.errno()), "shared memory " + name + " at " + Hex.range(address, length));
    }
    ParkedRanges.DEFAULT.park(address, length);
  }
}
