package io.kvfleet.engine.cuda;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.kvfleet.engine.Diagnosis;
import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.cuda.internal.Cudart;
import io.kvfleet.engine.internal.Calls;
import io.kvfleet.engine.internal.Hex;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * Device memory from {@code cudaMalloc}, for pools the node agent owns, tests and the GPU check.
 * One owner; {@link #close()} frees it. Inference workers keep their own allocations and hand
 * them over by address or {@link IpcHandle}.
 */
public final class DeviceMemory implements AutoCloseable {
  private final int device;
  private final long address;
  private final long length;
  private boolean closed;

  private DeviceMemory(int device, long address, long length) {
    this.device = device;
    this.address = address;
    this.length = length;
  }

  /**
   * Allocates {@code length} bytes on {@code device}; throws {@link EngineException} with a
   * diagnosis (DEVICE_UNAVAILABLE, OUT_OF_MEMORY) when CUDA cannot.
   */
  public static DeviceMemory allocate(int device, long length) {
    if (device < 0) {
      throw new IllegalArgumentException("device must be a device ordinal: " + device);
    }
    if (length <= 0) {
      throw new IllegalArgumentException("length must be positive: " + length);
    }
    Cuda.requireLibrary();
    String what = "device memory on GPU " + device;
    Optional<CudaError> selected = CudaDevice.select(device);
    if (selected.isPresent()) {
      throw EngineException.allocationFailed(what, length, diagnosis(selected.get()));
    }
    try (var arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(JAVA_LONG);
      int status = (int) Cudart.MALLOC.invokeExact(out, length);
      if (status != 0) {
        throw EngineException.allocationFailed(what, length,
            diagnosis(CudaError.of("cudaMalloc(" + length + ")", status)));
      }
      return new DeviceMemory(device, out.get(JAVA_LONG, 0), length);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  public int device() {
    return device;
  }

  /** The device pointer. */
  public long address() {
    return address;
  }

  public long length() {
    return length;
  }

  /** A request to register the whole allocation as VRAM. */
  public RegionRequest request(String regionId) {
    return RegionRequest.vram(regionId, device, address, length);
  }

  /** A CUDA IPC handle another process on this host can open. */
  public IpcHandle exportHandle() {
    return IpcHandle.export(address);
  }

  /** Frees the memory; idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      int status = (int) Cudart.FREE.invokeExact(address);
      if (status != 0) {
        CudaError error = CudaError.of("cudaFree", status);
        throw EngineException.nativeCallFailed(error.call(), error.code(), error.nativeMessage(),
            "device memory at " + Hex.range(address, length) + " on GPU " + device);
      }
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  private static Diagnosis diagnosis(CudaError error) {
    return CudaFailures.diagnosis("cannot allocate device memory", error);
  }

  @Override
  public String toString() {
    return "DeviceMemory[GPU " + device + " at " + Hex.range(address, length)
        + (closed ? ", freed" : "") + "]";
  }
}
