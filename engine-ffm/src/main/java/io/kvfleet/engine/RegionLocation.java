package io.kvfleet.engine;

import static java.util.Objects.requireNonNull;

import io.kvfleet.engine.internal.Hex;
import java.util.HexFormat;

/** How the registering process finds a region's memory. */
public sealed interface RegionLocation {

  /** An address in the registering process (host or device virtual address). */
  record Address(long address) implements RegionLocation {
    @Override
    public String toString() {
      return Hex.address(address);
    }
  }

  /**
   * A POSIX shared-memory object ({@code shm_open} name, e.g. {@code /kv-L0}) that the engine maps;
   * the region starts {@code offset} bytes into it.
   */
  record SharedMemory(String name, long offset) implements RegionLocation {
    public SharedMemory {
      requireNonNull(name, "name must not be null");
      if (offset < 0) {
        throw new IllegalArgumentException("offset must not be negative: " + offset);
      }
    }

    @Override
    public String toString() {
      return "shm:" + name + "+" + offset;
    }
  }

  /** An opaque device handle (e.g. a CUDA IPC handle) that only a device backend can open. */
  record DeviceHandle(byte[] handle) implements RegionLocation {
    public DeviceHandle {
      handle = requireNonNull(handle, "handle must not be null").clone();
    }

    @Override
    public byte[] handle() {
      return handle.clone();
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof DeviceHandle that && java.util.Arrays.equals(handle, that.handle);
    }

    @Override
    public int hashCode() {
      return java.util.Arrays.hashCode(handle);
    }

    @Override
    public String toString() {
      return "device-handle:" + HexFormat.of().formatHex(handle);
    }
  }
}
