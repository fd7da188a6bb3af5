package io.kvfleet.engine.cuda;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.kvfleet.engine.EngineException;
import io.kvfleet.engine.cuda.internal.CudaEnums;
import io.kvfleet.engine.cuda.internal.Cudart;
import io.kvfleet.engine.internal.Calls;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Optional;

/** A non-blocking CUDA stream on one device; a peer's batches from that device queue on it. */
final class CudaStream implements AutoCloseable {
  private final int device;
  private final long handle;
  private boolean closed;

  private CudaStream(int device, long handle) {
    this.device = device;
    this.handle = handle;
  }

  /** Creates a stream on {@code device}; throws {@link EngineException} when CUDA cannot. */
  static CudaStream create(int device) {
    Optional<CudaError> selected = CudaDevice.select(device);
    if (selected.isPresent()) {
      throw failed(selected.get(), device);
    }
    try (var arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(JAVA_LONG);
      int status = (int) Cudart.STREAM_CREATE_WITH_FLAGS.invokeExact(out,
          CudaEnums.STREAM_NON_BLOCKING);
      if (status != 0) {
        throw failed(CudaError.of("cudaStreamCreateWithFlags", status), device);
      }
      return new CudaStream(device, out.get(JAVA_LONG, 0));
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  int device() {
    return device;
  }

  long handle() {
    return handle;
  }

  /** Waits for everything queued on it. */
  Optional<CudaError> synchronize() {
    try {
      return CudaError.check("cudaStreamSynchronize",
          (int) Cudart.STREAM_SYNCHRONIZE.invokeExact(handle));
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  /** Waits for queued copies, then destroys it; idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    Optional<CudaError> waited = synchronize();
    try {
      Optional<CudaError> destroyed = CudaError.check("cudaStreamDestroy",
          (int) Cudart.STREAM_DESTROY.invokeExact(handle));
      Optional<CudaError> error = waited.or(() -> destroyed);
      if (error.isPresent()) {
        throw failed(error.get(), device);
      }
    } catch (Throwable t) {
      throw Calls.rethrow(t);
    }
  }

  private static EngineException failed(CudaError error, int device) {
    return EngineException.nativeCallFailed(error.call(), error.code(), error.nativeMessage(),
        "stream on GPU " + device);
  }
}
