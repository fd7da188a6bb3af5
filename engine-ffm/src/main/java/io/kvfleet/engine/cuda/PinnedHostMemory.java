package io.kvfleet.engine.cuda;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.RegionRequest;
import io.kvfleet.engine.cuda.internal.Cudart;
import io.kvfleet.engine.internal.Calls;
import io.kvfleet.engine.internal.Hex;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Page-locked host memory from {@code cudaMallocHost}: the bounce buffer of the staged path (DMA
 * to and from the GPU at full speed, and registrable with UCX as DRAM). Its segment lives in its
 * own arena, so any access after {@link #close()} throws instead of touching freed memory.
 */
public final class PinnedHostMemory implements AutoCloseable {
  private final long address;
  private final long length;
  private final Arena arena = Arena.ofShared();
  private final MemorySegment segment;
  private boolean closed;

  private PinnedHostMemory(long address, long length) {
    this.address = address;
    this.length = length;
    this.segment = MemorySegment.ofAddress(address).reinterpret(length, arena, null);
  }

  /** Allocates {@code length} pinned bytes; throws {@link EngineException} with a diagnosis. */
  public static PinnedHostMemory allocate(long length) {
    if (length <= 0) {
      throw new IllegalArgumentException("length must be positive: " + length);
    }
    Cuda.requireLibrary();
    try (var arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(JAVA_LONG);
      int status = (int) Cudart.MALLOC_HOST.invokeExact(out, length);
      if (status != 0) {
        throw EngineException.allocationFailed("pinned host memory", length, CudaFailures.diagnosis(
            "cannot allocate pinned host memory", CudaError.of("cudaMallocHost(" + length + ")", status)));
      }
      return new PinnedHostMemory(out.get(JAVA_LONG, 0), length);
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  public long address() {
    return address;
  }

  public long length() {
    return length;
  }

  /** The memory, valid until {@link #close()}. */
  public MemorySegment segment() {
    return segment;
  }

  /** A request to register it as DRAM (with UCX, for the staged path). */
  public RegionRequest request(String regionId) {
    return RegionRequest.dram(regionId, address, length);
  }

  /** Frees the memory; idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    arena.close();
    try {
      int status = (int) Cudart.FREE_HOST.invokeExact(address);
      if (status != 0) {
        CudaError error = CudaError.of("cudaFreeHost", status);
        throw EngineException.nativeCallFailed(error.call(), error.code(), error.nativeMessage(),
            "pinned host memory at " + Hex.range(address, length));
      }
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  @Override
  public String toString() {
    return "PinnedHostMemory[" + Hex.range(address, length) + (closed ? ", freed" : "") + "]";
  }
}
