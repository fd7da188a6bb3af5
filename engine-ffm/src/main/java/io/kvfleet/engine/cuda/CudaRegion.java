package io.kvfleet.engine.cuda;

import io.kvfleet.engine.spi.BackendRegion;

/**
 * A cuda registration: the device range, its GPU and the key peers need. Registering device memory
 * takes nothing native to hold; a region opened from a CUDA IPC handle closes its import.
 */
final class CudaRegion implements BackendRegion {
  private final long address;
  private final long length;
  private final int device;
  private final byte[] key;
  private final ImportedMemory imported;
  private boolean closed;

  CudaRegion(long address, long length, int device, byte[] key, ImportedMemory imported) {
    this.address = address;
    this.length = length;
    this.device = device;
    this.key = key;
    this.imported = imported;
  }

  @Override
  public long address() {
    return address;
  }

  @Override
  public long length() {
    return length;
  }

  int device() {
    return device;
  }

  @Override
  public byte[] packedKey() {
    return key.clone();
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (imported != null) {
      imported.close();
    }
  }
}
