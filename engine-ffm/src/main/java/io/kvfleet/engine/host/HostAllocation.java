package io.kvfleet.engine.host;

import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.internal.Hex;
import io.kvfleet.engine.internal.Libc;
import io.kvfleet.engine.spi.BackendAllocation;

/** Shared anonymous memory ({@code mmap(MAP_SHARED | MAP_ANONYMOUS)}); closing unmaps it. */
final class HostAllocation implements BackendAllocation {
  private final long address;
  private final long length;
  private boolean closed;

  HostAllocation(long address, long length) {
    this.address = address;
    this.length = length;
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
    Libc.Result result = Libc.munmap(address, length);
    if (result.failed()) {
      throw EngineException.nativeCallFailed("munmap", result.errno(),
          Libc.strerror(result.errno()), "host allocation at " + Hex.range(address, length));
    }
  }
}
