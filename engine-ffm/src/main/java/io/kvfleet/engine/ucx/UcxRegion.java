package io.kvfleet.engine.ucx;

import io.kvfleet.engine.spi.BackendRegion;

/**
 * A registration with the UCX backend: a range inside a {@link UcxMemory}. When it owns the memory
 * (it mapped it itself) closing unmaps; when it is a view of an engine allocation the allocation
 * keeps the mapping.
 */
final class UcxRegion implements BackendRegion {
  private final UcxMemory memory;
  private final long address;
  private final long length;
  private final boolean owner;
  private volatile boolean closed;

  UcxRegion(UcxMemory memory, long address, long length, boolean owner) {
    this.memory = memory;
    this.address = address;
    this.length = length;
    this.owner = owner;
  }

  @Override
  public long address() {
    return address;
  }

  @Override
  public long length() {
    return length;
  }

  /** The request parameters for puts and gets from this region (they name its memory handle). */
  long requestParam() {
    return memory.requestParam();
  }

  @Override
  public byte[] packedKey() {
    return memory.packedKey();
  }

  boolean isClosed() {
    return closed;
  }

  /** Whether {@code [start, start + bytes)} lies inside this registration. */
  boolean covers(long start, long bytes) {
    return bytes > 0 && bytes <= length && start >= address && start - address <= length - bytes;
  }

  @Override
  public void close() {
    closed = true;
    if (owner) {
      memory.close();
    }
  }
}
