package io.kvfleet.engine;

import static java.util.Objects.requireNonNull;

/**
 * A buffer to register, as the inference worker described it.
 *
 * @param regionId label used in diagnostics and duplicate reports (e.g. {@code kv-L0})
 * @param memoryType DRAM or VRAM
 * @param device GPU ordinal for VRAM; NUMA node for DRAM, or -1 for "any"
 * @param location where the memory is: an address, a shared-memory name or a device handle
 * @param length bytes; 0 is accepted here and reported as skipped by the engine
 * @param pin lock the pages in RAM ({@code mlock}) where the backend supports it
 */
public record RegionRequest(
    String regionId,
    MemoryType memoryType,
    int device,
    RegionLocation location,
    long length,
    boolean pin) {

  public RegionRequest {
    requireNonNull(regionId, "regionId must not be null");
    requireNonNull(memoryType, "memoryType must not be null");
    requireNonNull(location, "location must not be null");
    if (device < -1) {
      throw new IllegalArgumentException("device must be -1 or a device ordinal: " + device);
    }
    if (length < 0) {
      throw new IllegalArgumentException("length must not be negative: " + length);
    }
  }

  /** Host memory at {@code address} in this process. */
  public static RegionRequest dram(String regionId, long address, long length) {
    return new RegionRequest(
        regionId, MemoryType.DRAM, -1, new RegionLocation.Address(address), length, false);
  }

  /** Device memory of GPU {@code device} at {@code address}. */
  public static RegionRequest vram(String regionId, int device, long address, long length) {
    return new RegionRequest(
        regionId, MemoryType.VRAM, device, new RegionLocation.Address(address), length, false);
  }

  /** A POSIX shared-memory object, mapped by the engine. */
  public static RegionRequest sharedMemory(String regionId, String name, long offset, long length) {
    return new RegionRequest(
        regionId,
        MemoryType.DRAM,
        -1,
        new RegionLocation.SharedMemory(name, offset),
        length,
        false);
  }

  /** Engine-owned host memory, whole. */
  public static RegionRequest of(HostMemory memory) {
    return dram(memory.name(), memory.address(), memory.length());
  }

  /** The same request with the pages locked in RAM. */
  public RegionRequest pinned() {
    return new RegionRequest(regionId, memoryType, device, location, length, true);
  }

  /** The same request on another device (GPU ordinal, or NUMA node for DRAM). */
  public RegionRequest onDevice(int newDevice) {
    return new RegionRequest(regionId, memoryType, newDevice, location, length, pin);
  }

  /** The address when the location is one, else 0. */
  public long address() {
    return location instanceof RegionLocation.Address a ? a.address() : 0;
  }

  /** {@code kv-L0 DRAM 0x7f..+4096} for messages. */
  public String describe() {
    String where = memoryType + (device >= 0 ? " device " + device : "");
    return regionId + " " + where + " " + location + " length " + length;
  }
}
