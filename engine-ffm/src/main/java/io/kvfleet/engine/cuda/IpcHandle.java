package io.kvfleet.engine.cuda;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.util.Objects.requireNonNull;

import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.MemoryType;
import io.kvfleet.engine.RegionLocation;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.cuda.internal.CudaLayouts;
import io.kvfleet.engine.cuda.internal.Cudart;
import io.kvfleet.engine.internal.Calls;
import io.kvfleet.engine.internal.Hex;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;

/**
 * A CUDA IPC memory handle ({@code cudaIpcMemHandle_t}, 64 bytes): how an inference worker lets
 * the node agent, another process on the same host, reach device memory it allocated. The handle
 * names the whole allocation; it stays valid while the exporting process keeps the memory.
 */
public record IpcHandle(byte[] bytes) {

  public IpcHandle {
    requireNonNull(bytes, "bytes must not be null");
    if (bytes.length != CudaLayouts.IPC_HANDLE_SIZE) {
      throw new IllegalArgumentException("a CUDA IPC handle is " + CudaLayouts.IPC_HANDLE_SIZE
          + " bytes, got " + bytes.length);
    }
    bytes = bytes.clone();
  }

  @Override
  public byte[] bytes() {
    return bytes.clone();
  }

  /**
   * Exports the allocation that holds {@code devicePointer} (the worker side: {@code
   * cudaIpcGetMemHandle}); throws {@link EngineException} with the CUDA error when it cannot (e.g.
   * for memory from {@code cudaMallocAsync} pools or the virtual memory API).
   */
  public static IpcHandle export(long devicePointer) {
    if (devicePointer == 0) {
      throw new IllegalArgumentException("devicePointer must not be null");
    }
    Cuda.requireLibrary();
    CudaResult<IpcHandle> exported = tryExport(devicePointer);
    if (!exported.succeeded()) {
      CudaError error = exported.error();
      throw EngineException.nativeCallFailed(error.call(), error.code(), error.nativeMessage(),
          "device pointer " + Hex.address(devicePointer));
    }
    return exported.value();
  }

  static CudaResult<IpcHandle> tryExport(long devicePointer) {
    try (var arena = Arena.ofConfined()) {
      MemorySegment handle = arena.allocate(CudaLayouts.IPC_MEM_HANDLE);
      int status = (int) Cudart.IPC_GET_MEM_HANDLE.invokeExact(handle, devicePointer);
      return status == 0
          ? CudaResult.of(new IpcHandle(handle.toArray(JAVA_BYTE)))
          : CudaResult.failure(CudaError.of(
              "cudaIpcGetMemHandle(" + Hex.address(devicePointer) + ")", status));
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /** A request for the agent to register {@code length} bytes of the exported allocation as VRAM. */
  public RegionRequest request(String regionId, int device, long length) {
    return new RegionRequest(regionId, MemoryType.VRAM, device,
        new RegionLocation.DeviceHandle(bytes), length, false);
  }

  /** The handle as base64, the form a worker sends its agent. */
  public String toBase64() {
    return Base64.getEncoder().encodeToString(bytes);
  }

  /** Parses {@link #toBase64()}; throws {@link EngineException} when malformed. */
  public static IpcHandle fromBase64(String text) {
    try {
      return new IpcHandle(Base64.getDecoder().decode(text));
    } catch (IllegalArgumentException e) {
      throw EngineException.malformed("CUDA IPC handle", e.getMessage());
    }
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof IpcHandle that && Arrays.equals(bytes, that.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return "IpcHandle[" + HexFormat.of().formatHex(bytes, 0, 8) + "...]";
  }
}
