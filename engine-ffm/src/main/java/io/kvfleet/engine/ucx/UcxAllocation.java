package io.kvfleet.engine.ucx;

import io.kvfleet.engine.spi.BackendAllocation;

/** Host memory UCX allocated ({@code UCP_MEM_MAP_ALLOCATE}); closing frees it. */
final class UcxAllocation implements BackendAllocation {
  private final UcxMemory memory;
  private final Runnable onClose;

  UcxAllocation(UcxMemory memory, Runnable onClose) {
    this.memory = memory;
    this.onClose = onClose;
  }

  UcxMemory memory() {
    return memory;
  }

  @Override
  public long address() {
    return memory.address();
  }

  @Override
  public long length() {
    return memory.length();
  }

  @Override
  public void close() {
    try {
      memory.close();
    } finally {
      onClose.run();
    }
  }
}
