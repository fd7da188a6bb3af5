package io.kvfleet.engine;

import io.kvfleet.engine.internal.Hex;
import io.kvfleet.engine.spi.BackendAllocation;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Host memory the engine allocated (for demos, benchmarks and KV pools the node owns). Its segment
 * lives in its own arena: after {@link #close()} any access throws instead of touching freed
 * memory. Register it with {@link RegionRequest#of(HostMemory)}.
 */
@SuppressWarnings("restricted") // FFM by design: native addresses from libc and UCX
public final class HostMemory implements AutoCloseable {
  private final Engine engine;
  private final String name;
  private final String backend;
  private final BackendAllocation allocation;
  private final Arena arena = Arena.ofShared();
  private final MemorySegment segment;
  private boolean closed;

  HostMemory(Engine engine, String name, String backend, BackendAllocation allocation) {
    this.engine = engine;
    this.name = name;
    this.backend = backend;
    this.allocation = allocation;
    this.segment = MemorySegment.ofAddress(allocation.address())
        .reinterpret(allocation.length(), arena, null);
  }

  public String name() {
    return name;
  }

  /** The backend that allocated it (UCX allocates segments its shared-memory transports map). */
  public String backend() {
    return backend;
  }

  public long address() {
    return allocation.address();
  }

  public long length() {
    return allocation.length();
  }

  /** The memory, valid until {@link #close()}. */
  public MemorySegment segment() {
    return segment;
  }

  /** Frees the memory; throws if regions on it are still registered. Idempotent. */
  @Override
  public void close() {
    engine.free(this);
  }

  /** Called by the engine once no registration overlaps it. */
  synchronized void free() {
    if (closed) {
      return;
    }
    closed = true;
    arena.close();
    allocation.close();
  }

  synchronized boolean isClosed() {
    return closed;
  }

  @Override
  public String toString() {
    return "HostMemory[" + name + " from " + backend + " at " + Hex.range(address(), length()) + "]";
  }
}
