package io.kvfleet.engine.cuda;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.cuda.internal.CudaEnums;
import io.kvfleet.engine.cuda.internal.CudaLayouts;
import io.kvfleet.engine.cuda.internal.Cudart;
import io.kvfleet.engine.internal.Calls;
import io.kvfleet.engine.internal.Hex;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * Another process's device memory opened in this one ({@code cudaIpcOpenMemHandle}), e.g. so that
 * the agent can register a worker's buffers with UCX by address. {@link #close()} unmaps it. The
 * exporting process cannot open its own handle; CUDA refuses.
 */
public final class ImportedMemory implements AutoCloseable {
  private final long address;
  private final int device;
  private boolean closed;

  private ImportedMemory(long address, int device) {
    this.address = address;
    this.device = device;
  }

  /** Opens {@code handle} on {@code device}; throws {@link EngineException} with the CUDA error. */
  public static ImportedMemory open(IpcHandle handle, int device) {
    if (device < 0) {
      throw new IllegalArgumentException("device must be a device ordinal: " + device);
    }
    Cuda.requireLibrary();
    CudaResult<ImportedMemory> opened = tryOpen(handle.bytes(), device);
    if (!opened.succeeded()) {
      CudaError error = opened.error();
      throw EngineException.nativeCallFailed(error.call(), error.code(), error.nativeMessage(),
          handle + " on GPU " + device);
    }
    return opened.value();
  }

  static CudaResult<ImportedMemory> tryOpen(byte[] handle, int device) {
    Optional<CudaError> selected = CudaDevice.select(device);
    if (selected.isPresent()) {
      return CudaResult.failure(selected.get());
    }
    try (var arena = Arena.ofConfined()) {
      MemorySegment value = arena.allocate(CudaLayouts.IPC_MEM_HANDLE);
      MemorySegment.copy(handle, 0, value, JAVA_BYTE, 0,
          CudaLayouts.IPC_HANDLE_SIZE);
      MemorySegment out = arena.allocate(JAVA_LONG);
      int status = (int) Cudart.IPC_OPEN_MEM_HANDLE.invokeExact(out, value,
          CudaEnums.IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
      return status == 0
          ? CudaResult.of(new ImportedMemory(out.get(JAVA_LONG, 0), device))
          : CudaResult.failure(CudaError.of("cudaIpcOpenMemHandle", status));
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /** The base of the exported allocation in this process. */
  public long address() {
    return address;
  }

  public int device() {
    return device;
  }

  /** A request to register {@code length} bytes from {@code offset} by address (for UCX with CUDA). */
  public RegionRequest request(String regionId, long offset, long length) {
    return RegionRequest.vram(regionId, device, address + offset, length);
  }

  /** Unmaps it; idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      int status = (int) Cudart.IPC_CLOSE_MEM_HANDLE.invokeExact(address);
      if (status != 0) {
        CudaError error = CudaError.of("cudaIpcCloseMemHandle", status);
        throw EngineException.nativeCallFailed(error.call(), error.code(), error.nativeMessage(),
            "imported device memory at " + Hex.address(address) + " on GPU " + device);
      }
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  @Override
  public String toString() {
    return "ImportedMemory[GPU " + device + " at " + Hex.address(address)
        + (closed ? ", closed" : "") + "]";
  }
}
