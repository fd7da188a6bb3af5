package io.kvfleet.engine.cuda;

import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.cuda.internal.CudaEnums;
import io.kvfleet.engine.cuda.internal.Cudart;
import io.kvfleet.engine.internal.Calls;
import io.kvfleet.engine.internal.Hex;

/**
 * Host memory someone else allocated, page-locked for CUDA with {@code cudaHostRegister} (e.g. the
 * engine's UCX shared-memory buffer used as a staging buffer). {@link #close()} unpins it; the
 * memory itself stays with its owner, who must outlive the pin.
 */
public final class HostPin implements AutoCloseable {
  private final long address;
  private final long length;
  private boolean closed;

  private HostPin(long address, long length) {
    this.address = address;
    this.length = length;
  }

  /** Pins {@code [address, address + length)}; throws {@link EngineException} with the CUDA error. */
  public static HostPin pin(long address, long length) {
    if (address == 0) {
      throw new IllegalArgumentException("address must not be null");
    }
    if (length <= 0) {
      throw new IllegalArgumentException("length must be positive: " + length);
    }
    Cuda.requireLibrary();
    try {
      int status = (int) Cudart.HOST_REGISTER.invokeExact(address, length,
          CudaEnums.HOST_REGISTER_DEFAULT);
      if (status != 0) {
        CudaError error = CudaError.of("cudaHostRegister", status);
        throw EngineException.nativeCallFailed(error.call(), error.code(), error.nativeMessage(),
            "host memory at " + Hex.range(address, length));
      }
      return new HostPin(address, length);
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

  /** Unpins; idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      int status = (int) Cudart.HOST_UNREGISTER.invokeExact(address);
      if (status != 0) {
        CudaError error = CudaError.of("cudaHostUnregister", status);
        throw EngineException.nativeCallFailed(error.call(), error.code(), error.nativeMessage(),
            "host memory at " + Hex.range(address, length));
      }
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }
}
