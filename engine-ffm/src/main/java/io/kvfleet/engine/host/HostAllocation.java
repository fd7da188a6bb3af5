package io.kvfleet.engine.host;

import io.kvfleet.engine.Diagnosis;
import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.RegistrationFailure;
import io.kvfleet.engine.internal.FileCalls;
import io.kvfleet.engine.internal.Hex;
import io.kvfleet.engine.internal.Libc;
import io.kvfleet.engine.spi.BackendAllocation;
import java.nio.file.Path;

/**
 * Host memory in a POSIX shared-memory object of its own ({@code /dev/shm/kvfleet-alloc-<token><hex>},
 * mode 0600, its pages reserved up front), mapped shared: a region in it can be granted to peers
 * by a hard link to the object. Closing unmaps it and unlinks the object.
 */
final class HostAllocation implements BackendAllocation {
  static final String PREFIX = "kvfleet-alloc-";
  private final String name;
  private final long address;
  private final long length;
  private boolean closed;

  private HostAllocation(String name, long address, long length) {
    this.name = name;
    this.address = address;
    this.length = length;
  }

  /** Creates, sizes and maps a new object; throws {@code allocationFailed} with the diagnosis. */
  static HostAllocation create(String label, long length, long token) {
    String name = PREFIX + Grants.newName(token).substring(Grants.PREFIX.length());
    Libc.Result fd = Libc.shmOpen("/" + name, Libc.O_RDWR | Libc.O_CREAT | Libc.O_EXCL, 0600);
    if (fd.failed()) {
      throw failed(label, length, "shm_open(/" + name + ")", fd.errno());
    }
    int descriptor = (int) fd.value();
    try {
      int reserved = FileCalls.fallocate(descriptor, length);
      if (reserved != 0) {
        Libc.shmUnlink("/" + name);
        throw failed(label, length, "posix_fallocate of /dev/shm/" + name, reserved);
      }
      Libc.Result mapped = Libc.mmap(0, length, Libc.PROT_READ | Libc.PROT_WRITE, Libc.MAP_SHARED,
          descriptor, 0);
      if (mapped.value() == Libc.MAP_FAILED) {
        Libc.shmUnlink("/" + name);
        throw failed(label, length, "mmap of /dev/shm/" + name, mapped.errno());
      }
      return new HostAllocation(name, mapped.value(), length);
    } finally {
      Libc.close(descriptor);
    }
  }

  private static EngineException failed(String label, long length, String call, int errno) {
    RegistrationFailure reason = errno == Libc.ENOMEM || errno == Libc.ENOSPC
        ? RegistrationFailure.OUT_OF_MEMORY
        : RegistrationFailure.BACKEND_ERROR;
    return EngineException.allocationFailed(label, length, Diagnosis.ofNative(reason,
        call + " for " + length + " bytes failed", errno, Libc.strerror(errno)));
  }

  /** The shared-memory object, to grant regions of it. */
  Path file() {
    return Grants.DIRECTORY.resolve(name);
  }

  /** Whether {@code [from, from + bytes)} lies inside this allocation. */
  boolean covers(long from, long bytes) {
    return from >= address && bytes <= length && from - address <= length - bytes;
  }

  @Override
  public long address() {
    return address;
  }

  @Override
  public long length() {
    return length;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    Libc.shmUnlink("/" + name);
    Libc.Result result = Libc.munmap(address, length);
    if (result.failed()) {
      throw EngineException.nativeCallFailed("munmap", result.errno(),
          Libc.strerror(result.errno()), "host allocation at " + Hex.range(address, length));
    }
  }
}
